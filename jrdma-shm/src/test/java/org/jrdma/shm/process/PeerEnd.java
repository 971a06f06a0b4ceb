package org.jrdma.shm.process;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.jrdma.shm.ShmProvider;
import org.jrdma.testkit.RcAttrs;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QueuePair;

/**
 * One side of a cross-process test: an shm context, one RC QP with {@code buffer} bytes of
 * registered memory (the provider's shared memory or an ordinary arena's), and what the other
 * side needs to reach it, as one line of text.
 */
final class PeerEnd implements AutoCloseable {
    static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ
            | AccessFlags.REMOTE_ATOMIC;
    final Arena arena = Arena.ofShared();
    final Context context;
    final ProtectionDomain pd;
    final CompletionQueue cq;
    final QueuePair qp;
    final MemorySegment memory;
    final MemoryRegion mr;

    PeerEnd(long buffer, boolean providerMemory) {
        context = new ShmProvider().devices().getFirst().open();
        pd = context.allocPd();
        cq = context.createCq(256, null);
        qp = pd.createQp(new QpInitAttr().cq(cq).cap(new QpCap(64, 64, 2, 2, 64)));
        memory = providerMemory ? context.allocateMemory(buffer, arena) : arena.allocate(buffer, 4096);
        mr = pd.registerMemory(memory, ACCESS, arena);
        qp.modify(RcAttrs.init(1, ACCESS));
    }

    /** gid qpn addr rkey */
    String line() {
        return context.queryGid(1, 0).toHex() + " " + qp.qpNum() + " " + mr.addr() + " " + mr.rkey();
    }

    /** Walks the QP to RTS toward the peer a {@link #line()} describes. */
    void connect(String peerLine) {
        String[] f = peerLine.trim().split(" ");
        AhAttr av = AhAttr.roce(Gid.fromHex(f[0]), 0, 1);
        qp.modify(RcAttrs.rtr(av, Mtu.MTU_4096, Integer.parseInt(f[1]), 0));
        QpAttr rts = RcAttrs.rts(0);
        qp.modify(rts);
        if (qp.state() != QpState.RTS) {
            throw new IllegalStateException("QP in " + qp.state());
        }
    }

    @Override
    public void close() {
        context.close();
        arena.close();
    }
}
