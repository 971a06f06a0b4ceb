package org.jrdma.soft;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.jrdma.soft.engine.SoftHca;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AddressHandle;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.Qkey;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QueuePair;

/**
 * One soft device opened for GSI tests: a context, a PD, one CQ for both queues and a registered
 * buffer. {@link #gsi()} brings up QP1 the way a connection manager does.
 */
final class GsiEnd implements AutoCloseable {
    final SoftDevice device;
    final Context ctx;
    final ProtectionDomain pd;
    final CompletionQueue cq;
    final MemorySegment buf;
    final MemoryRegion mr;

    GsiEnd(SoftDevice device, Arena arena) {
        this.device = device;
        this.ctx = device.open();
        this.pd = ctx.allocPd();
        this.cq = ctx.createCq(64, null);
        this.buf = arena.allocate(16384);
        this.mr = pd.registerMemory(buf, AccessFlags.LOCAL_WRITE);
    }

    SoftHca hca() {
        return ((SoftContext) ctx).hca();
    }

    Gid gid() {
        return ctx.queryGid(1, 0);
    }

    /** The GSI QP at RTS: INIT with P_Key index 0 and Q_Key 0x80010000 (as ib_mad does), RTR, RTS with SQ PSN 0. */
    QueuePair gsi() {
        QueuePair qp = pd.createQp(new QpInitAttr().qpType(QpType.GSI).cq(cq).cap(new QpCap(16, 16, 1, 1, 0)));
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).qkey(Qkey.QP1));
        qp.modify(new QpAttr().state(QpState.RTR));
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(0));
        return qp;
    }

    /** An ordinary UD QP at RTS with {@code qkey}. */
    QueuePair ud(int qkey) {
        QueuePair qp = pd.createQp(new QpInitAttr().qpType(QpType.UD).cq(cq).cap(new QpCap(16, 16, 1, 1, 0)));
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).qkey(qkey));
        qp.modify(new QpAttr().state(QpState.RTR));
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(0));
        return qp;
    }

    /** An address handle for a peer: its IPv4-mapped GID is all a soft device needs. */
    AddressHandle ahTo(GsiEnd peer) {
        return pd.createAh(AhAttr.roce(peer.gid(), 0, 1));
    }

    @Override
    public void close() {
        ctx.close();
    }
}
