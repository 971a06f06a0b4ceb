package org.jrdma.soft;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.jrdma.soft.engine.SoftHca;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;

/**
 * Two connected RC QPs on one soft device (requester {@code a}, responder {@code b}), each with
 * its own CQ and a registered buffer — the fixture of the transport tests.
 */
final class RcPair implements AutoCloseable {
    final Context ctx;
    final ProtectionDomain pd;
    final CompletionQueue cqA;
    final CompletionQueue cqB;
    final QueuePair a;
    final QueuePair b;
    final Arena arena = Arena.ofShared();
    final MemorySegment bufA;
    final MemorySegment bufB;
    final MemoryRegion mrA;
    final MemoryRegion mrB;

    static final int REMOTE_ALL = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ
            | AccessFlags.REMOTE_ATOMIC;

    RcPair(SoftDevice device, Mtu mtu, int timeout, int retry, int rnrRetry, int minRnrTimer, int bytes) {
        this(device, mtu, timeout, retry, rnrRetry, minRnrTimer, bytes, AccessFlags.LOCAL_WRITE, 0, 1);
    }

    /** With the MRs registered with {@code mrAccess}, the QPs' access flags and max rd/atomic depth. */
    RcPair(SoftDevice device, Mtu mtu, int timeout, int retry, int rnrRetry, int minRnrTimer, int bytes, int mrAccess,
            int qpAccess, int rdAtomic) {
        ctx = device.open();
        pd = ctx.allocPd();
        cqA = ctx.createCq(256, null);
        cqB = ctx.createCq(256, null);
        a = pd.createQp(new QpInitAttr().cq(cqA).cap(new QpCap(64, 64, 4, 4, 64)));
        b = pd.createQp(new QpInitAttr().cq(cqB).cap(new QpCap(64, 64, 4, 4, 64)));
        bufA = arena.allocate(bytes, 64);
        bufB = arena.allocate(bytes, 64);
        mrA = pd.registerMemory(bufA, mrAccess);
        mrB = pd.registerMemory(bufB, mrAccess);
        connect(a, b.qpNum(), 0x10, 0x20, mtu, timeout, retry, rnrRetry, minRnrTimer, qpAccess, rdAtomic);
        connect(b, a.qpNum(), 0x20, 0x10, mtu, timeout, retry, rnrRetry, minRnrTimer, qpAccess, rdAtomic);
    }

    private void connect(QueuePair qp, int remote, int sqPsn, int rqPsn, Mtu mtu, int timeout, int retry, int rnr, int minRnr,
            int qpAccess, int rdAtomic) {
        initToRtr(qp, ctx, remote, rqPsn, mtu, qpAccess, rdAtomic, minRnr);
        qp.modify(rts(sqPsn, timeout, retry, rnr, rdAtomic));
    }

    /** RESET → INIT → RTR towards {@code destQpNum} on {@code remote}'s GID 0: shared with {@link VictimPair}. */
    static void initToRtr(QueuePair qp, Context remote, int destQpNum, int rqPsn, Mtu pathMtu, int accessFlags,
            int maxDestRdAtomic, int minRnrTimer) {
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(accessFlags));
        qp.modify(new QpAttr().state(QpState.RTR).pathMtu(pathMtu).destQpNum(destQpNum).rqPsn(rqPsn)
                .maxDestRdAtomic(maxDestRdAtomic).minRnrTimer(minRnrTimer).ahAttr(AhAttr.roce(remote.queryGid(1, 0), 0, 1)));
    }

    /** The RTR → RTS attributes (shared with {@link VictimPair}, which may add {@link QpAttr#timeoutInfinite()}). */
    static QpAttr rts(int sqPsn, int timeout, int retryCnt, int rnrRetry, int maxRdAtomic) {
        return new QpAttr().state(QpState.RTS).sqPsn(sqPsn).timeout(timeout).retryCnt(retryCnt).rnrRetry(rnrRetry)
                .maxRdAtomic(maxRdAtomic);
    }

    SoftHca hca() {
        return ((SoftContext) ctx).hca();
    }

    void fill(MemorySegment seg, long seed) {
        java.util.Random r = new java.util.Random(seed);
        for (long i = 0; i < seg.byteSize(); i++) {
            seg.set(ValueLayout.JAVA_BYTE, i, (byte) r.nextInt());
        }
    }

    void postRecv(long wrId, long offset, int length) {
        b.postRecv(new RecvWorkRequest().wrId(wrId).sg(Sge.of(mrB, offset, length)));
    }

    void send(long wrId, long offset, int length, int flags) {
        a.postSend(new SendWorkRequest().wrId(wrId).opcode(WrOpcode.SEND).flags(flags).sg(Sge.of(mrA, offset, length)));
    }

    void send(long wrId, long offset, int length) {
        send(wrId, offset, length, SendFlags.SIGNALED);
    }

    /** Polls {@code cq} until {@code n} completions arrived or the deadline passed. */
    static List<WorkCompletion> poll(CompletionQueue cq, int n, Duration deadline) {
        List<WorkCompletion> got = new ArrayList<>();
        long end = System.nanoTime() + deadline.toNanos();
        WorkCompletion[] one = {new WorkCompletion()};
        while (got.size() < n && System.nanoTime() < end) {
            if (cq.poll(one) == 1) {
                WorkCompletion c = new WorkCompletion();
                c.copyFrom(one[0]);
                got.add(c);
            } else {
                Thread.onSpinWait();
            }
        }
        return got;
    }

    static void await(BooleanSupplier condition, Duration deadline, String what) {
        long end = System.nanoTime() + deadline.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.onSpinWait();
        }
    }

    @Override
    public void close() {
        ctx.close();
        arena.close();
    }
}
