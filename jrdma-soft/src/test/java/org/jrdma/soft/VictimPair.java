package org.jrdma.soft;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;
import org.jrdma.soft.engine.SoftHca;
import org.jrdma.soft.engine.SourceCheck;
import org.jrdma.soft.transport.SourcePin;
import org.jrdma.soft.wire.DropReason;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;

/**
 * The injection tests' fixture: an honest peer {@code a} on device A and the victim {@code b}
 * on device B, two soft devices on their own 127.77.x.y addresses, RC-connected both ways
 * (a's SQ PSN = b's expected PSN = {@link #A_TO_B_PSN}; the other way {@link #B_TO_A_PSN}),
 * each with a buffer registered for every remote access.
 */
final class VictimPair implements AutoCloseable {
    static final int A_TO_B_PSN = 0x10;
    static final int B_TO_A_PSN = 0x20;
    static final Duration DEADLINE = Duration.ofSeconds(10);
    static final int REMOTE_ALL = RcPair.REMOTE_ALL;
    /** Injected packets in flight before {@link #floodB} waits for the victim to count them. */
    static final int INJECTION_WINDOW = 256;

    final SoftDevice devA;
    final SoftDevice devB;
    final Context ctxA;
    final Context ctxB;
    final CompletionQueue cqA;
    final CompletionQueue cqB;
    final QueuePair a;
    final QueuePair b;
    final Arena arena = Arena.ofShared();
    final MemorySegment bufA;
    final MemorySegment bufB;
    final MemoryRegion mrA;
    final MemoryRegion mrB;

    VictimPair(String name, SourceCheck check, int bytes, int rdAtomic) {
        this(name, SoftOptions.defaults().sourceCheck(check), SoftOptions.defaults().sourceCheck(check), bytes, rdAtomic, 14);
    }

    /** With each device's options and a's and b's local ACK timeout (0: no retransmission timer). */
    VictimPair(String name, SoftOptions optionsA, SoftOptions optionsB, int bytes, int rdAtomic, int timeout) {
        devA = FreshDevices.fresh(name + "_a", optionsA);
        devB = FreshDevices.fresh(name + "_b", optionsB);
        ctxA = devA.open();
        ctxB = devB.open();
        ProtectionDomain pdA = ctxA.allocPd();
        ProtectionDomain pdB = ctxB.allocPd();
        cqA = ctxA.createCq(1024, null);
        cqB = ctxB.createCq(1024, null);
        a = pdA.createQp(new QpInitAttr().cq(cqA).cap(new QpCap(64, 256, 4, 4, 64)));
        b = pdB.createQp(new QpInitAttr().cq(cqB).cap(new QpCap(64, 256, 4, 4, 64)));
        bufA = arena.allocate(bytes, 64);
        bufB = arena.allocate(bytes, 64);
        mrA = pdA.registerMemory(bufA, REMOTE_ALL);
        mrB = pdB.registerMemory(bufB, REMOTE_ALL);
        connect(a, ctxB, b.qpNum(), A_TO_B_PSN, B_TO_A_PSN, rdAtomic, timeout);
        connect(b, ctxA, a.qpNum(), B_TO_A_PSN, A_TO_B_PSN, rdAtomic, timeout);
    }

    private static void connect(QueuePair qp, Context remote, int remoteQpn, int sqPsn, int rqPsn, int rdAtomic,
            int timeout) {
        int access = REMOTE_ALL & ~org.jrdma.verbs.AccessFlags.LOCAL_WRITE;
        RcPair.initToRtr(qp, remote, remoteQpn, rqPsn, Mtu.MTU_1024, access, rdAtomic, 1);
        QpAttr rts = RcPair.rts(sqPsn, timeout, 7, 7, rdAtomic);
        qp.modify(timeout == 0 ? rts.timeoutInfinite() : rts); // REL-14: no timer only when asked for by name
    }

    SoftHca hcaA() {
        return ((SoftContext) ctxA).hca();
    }

    SoftHca hcaB() {
        return ((SoftContext) ctxB).hca();
    }

    /** Where packets for the victim b go (B's device socket). */
    InetSocketAddress victimB() {
        return hcaB().localAddress();
    }

    /** Where packets for a go. */
    InetSocketAddress victimA() {
        return hcaA().localAddress();
    }

    InetAddress ipA() {
        return devA.spec().address();
    }

    InetAddress ipB() {
        return devB.spec().address();
    }

    long dropsB(DropReason r) {
        return hcaB().drops(r);
    }

    long dropsA(DropReason r) {
        return hcaA().drops(r);
    }

    /** The source port b pinned for a (0: none yet). */
    int pinnedAtB() {
        SoftQp q = (SoftQp) b;
        synchronized (q) {
            return SourcePin.pinned(q.transport());
        }
    }

    /** The source port a pinned for b (0: none yet). */
    int pinnedAtA() {
        SoftQp q = (SoftQp) a;
        synchronized (q) {
            return SourcePin.pinned(q.transport());
        }
    }

    void postRecvB(long wrId, long offset, int length) {
        b.postRecv(new RecvWorkRequest().wrId(wrId).sg(Sge.of(mrB, offset, length)));
    }

    void sendAtoB(long wrId, long offset, int length) {
        a.postSend(new SendWorkRequest().wrId(wrId).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED)
                .sg(Sge.of(mrA, offset, length)));
    }

    /**
     * Sends {@code packets} packets from {@code h3} to b ({@code packet} makes the i-th), pausing at
     * every {@link #INJECTION_WINDOW}-th until b's {@code handled} count trails by at most that window.
     */
    void floodB(Attacker h3, int packets, IntFunction<ByteBuffer> packet, LongSupplier handled) throws IOException {
        for (int i = 0; i < packets; i++) {
            h3.send(packet.apply(i), victimB());
            if (h3.sent() % INJECTION_WINDOW == 0) {
                long target = h3.sent() - INJECTION_WINDOW;
                await(() -> handled.getAsLong() >= target, "victim keeps up");
            }
        }
    }

    static List<WorkCompletion> poll(CompletionQueue cq, int n, Duration d) {
        return RcPair.poll(cq, n, d);
    }

    static void await(java.util.function.BooleanSupplier c, String what) {
        RcPair.await(c, DEADLINE, what);
    }

    @Override
    public void close() {
        ctxA.close();
        ctxB.close();
        arena.close();
    }
}
