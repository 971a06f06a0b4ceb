package org.jrdma.soft.transport;

import java.util.ArrayList;
import java.util.List;
import org.jrdma.soft.StageMemory;
import org.jrdma.soft.SoftMr;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AsyncEventType;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.Sge;

/**
 * One {@link TransportQp} for stage tests, with everything it reports kept: its send and
 * receive CQs, its asynchronous events. Built in RTS with the attributes a test names (the
 * modify_qp walk without the verbs layer: one attribute value applied by mask), MTU 1024, its responder expecting {@link #RQ_PSN}
 * and its requester starting at {@link #SQ_PSN}.
 */
final class StageQp {
    static final int QPN = 0x0A0B0C;
    static final int PEER_QPN = 0x0C0DE0;
    static final int RQ_PSN = 0x100;
    static final int SQ_PSN = 0x500;
    static final int MIN_RNR_TIMER = 12;
    static final int QKEY = 0x11111111;
    static final int REMOTE_ALL = AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC;

    final TransportQp qp;
    final FakeCq sendCq = new FakeCq();
    final FakeCq recvCq = new FakeCq();
    final List<AsyncEventType> events = new ArrayList<>();
    private final StageMemory memory;

    /** An RC/UC/UD QP in RTS: all remote access, max_dest_rd_atomic 4, timeout 14, retry_cnt 7, rnr_retry 7. */
    StageQp(StageMemory memory, QpType type) {
        this(memory, type, REMOTE_ALL, 4, 14, 7, 7);
    }

    StageQp(StageMemory memory, QpType type, int access, int maxDestRdAtomic, int timeout, int retryCnt, int rnrRetry) {
        this.memory = memory;
        Counters<QpCounter> device = new Counters<>(QpCounter.class);
        qp = new TransportQp(QPN, type, memory.pd(), memory.memory(), sendCq, recvCq, false, 16, 16, 4, 4, 64, device,
                1024, null, events::add, new Object());
        qp.moveTo(QpState.INIT);
        QpAttr a = new QpAttr().accessFlags(access).pathMtu(Mtu.MTU_1024).destQpNum(PEER_QPN).rqPsn(RQ_PSN)
                .maxDestRdAtomic(maxDestRdAtomic).minRnrTimer(MIN_RNR_TIMER).sqPsn(SQ_PSN).timeout(timeout)
                .retryCnt(retryCnt).rnrRetry(rnrRetry).maxRdAtomic(4);
        if (type.isDatagram()) {
            a.qkey(QKEY);
        }
        qp.modify(a, a.mask());
        qp.moveTo(QpState.RTR);
        qp.moveTo(QpState.RTS);
    }

    /** Posts a receive of {@code bytes} in a fresh region (none: no SGE, a zero-length buffer). */
    SoftMr postRecv(long wrId, int bytes) {
        RecvWorkRequest wr = new RecvWorkRequest().wrId(wrId);
        SoftMr mr = null;
        if (bytes > 0) {
            mr = memory.region(bytes, AccessFlags.LOCAL_WRITE);
            wr.sg(Sge.of(mr));
        }
        qp.postRecv(wr);
        return mr;
    }

    /** Posts a receive whose SGE names no registered memory (lkey 0x0BAD): a malformed receive WQE. */
    void postBadRecv(long wrId) {
        qp.postRecv(new RecvWorkRequest().wrId(wrId).sg(new Sge(0x1000, 64, 0x0BAD)));
    }

    long count(QpCounter c) {
        return qp.counters.get(c);
    }
}
