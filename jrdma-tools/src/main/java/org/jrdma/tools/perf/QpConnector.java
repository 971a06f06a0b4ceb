package org.jrdma.tools.perf;

import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QueuePair;

/**
 * The QP transitions with the attributes perftest uses (ctx_modify_qp_to_init/rtr/rts,
 * ROCEV2-FACTS §6.5): INIT with the access a verb needs (UD: Q_Key 0x11111111); RTR with the
 * negotiated MTU, the peer's QPN and PSN, a global AV to the peer's GID with hop limit 0xFF, and
 * for RC max_dest_rd_atomic = our {@code -o} and min_rnr_timer 12; RTS with our PSN and for RC
 * timeout 14, retry_cnt 7, rnr_retry 7, max_rd_atomic = the peer's {@code -o}. UC sets only
 * AV, MTU, DEST_QPN and RQ_PSN at RTR and SQ_PSN at RTS; UD only the state and SQ_PSN.
 */
final class QpConnector {
    /** DEF_QKEY. */
    static final int QKEY = 0x11111111;
    static final int MIN_RNR_TIMER = 12;
    static final int TIMEOUT = 14;
    static final int RETRY_CNT = 7;
    static final int RNR_RETRY = 7;
    static final int HOP_LIMIT = 0xFF;
    static final int PORT = 1;

    private QpConnector() {
    }

    static void toInit(QueuePair qp) {
        QpAttr attr = new QpAttr().state(QpState.INIT).pkeyIndex(0).port(PORT);
        switch (qp.qpType()) {
            case RC -> attr.accessFlags(AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ
                    | AccessFlags.REMOTE_ATOMIC);
            case UC -> attr.accessFlags(AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
            default -> attr.qkey(QKEY);
        }
        qp.modify(attr);
    }

    static AhAttr addressVector(KeyMessage peer, int gidIndex) {
        AhAttr ah = AhAttr.roce(peer.gid(), gidIndex, PORT);
        ah.hopLimit = HOP_LIMIT;
        ah.dlid = peer.lid();
        return ah;
    }

    static void toRtr(QueuePair qp, Mtu mtu, KeyMessage peer, int gidIndex, int ourOutReads) {
        QpAttr attr = new QpAttr().state(QpState.RTR);
        if (qp.qpType() != QpType.UD) {
            attr.pathMtu(mtu).destQpNum(peer.qpn()).rqPsn(peer.psn()).ahAttr(addressVector(peer, gidIndex));
        }
        if (qp.qpType() == QpType.RC) {
            attr.maxDestRdAtomic(ourOutReads).minRnrTimer(MIN_RNR_TIMER);
        }
        qp.modify(attr);
    }

    static void toRts(QueuePair qp, int ourPsn, int peerOutReads) {
        QpAttr attr = new QpAttr().state(QpState.RTS).sqPsn(ourPsn);
        if (qp.qpType() == QpType.RC) {
            attr.timeout(TIMEOUT).retryCnt(RETRY_CNT).rnrRetry(RNR_RETRY).maxRdAtomic(peerOutReads);
        }
        qp.modify(attr);
    }
}
