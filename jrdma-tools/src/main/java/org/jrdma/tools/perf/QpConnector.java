package org.jrdma.tools.perf;

import org.jrdma.bootstrap.KeyMessage;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpWalk;
import org.jrdma.verbs.QueuePair;

/**
 * The QP transitions with the attributes perftest uses ({@link QpWalk#perftest},
 * ctx_modify_qp_to_init/rtr/rts, ROCEV2-FACTS §6.5): INIT with the access every verb needs (UD:
 * Q_Key 0x11111111); RTR with the negotiated MTU, the peer's QPN and PSN, a global AV to the
 * peer's GID with hop limit 0xFF, and for RC max_dest_rd_atomic = our {@code -o} and
 * min_rnr_timer 12; RTS with our PSN and for RC timeout 14, retry_cnt 7, rnr_retry 7,
 * max_rd_atomic = the peer's {@code -o}. UC sets only AV, MTU, DEST_QPN and RQ_PSN at RTR and
 * SQ_PSN at RTS; UD only the state and SQ_PSN. perftest's {@code -S} is the address vector's
 * service level (ah_attr.sl, RTR and UD's address handles alike), its {@code -u} RTS's timeout.
 */
final class QpConnector {
    /** DEF_QKEY. */
    static final int QKEY = QpWalk.DEFAULT_QKEY;
    static final int HOP_LIMIT = 0xFF;
    static final int PORT = 1;

    private QpConnector() {
    }

    private static QpWalk walk(QueuePair qp) {
        return QpWalk.perftest(qp.qpType()).port(PORT).qkey(QKEY);
    }

    static void toInit(QueuePair qp) {
        qp.modify(walk(qp).init());
    }

    static AhAttr addressVector(KeyMessage peer, int gidIndex) {
        return addressVector(peer, gidIndex, 0);
    }

    static AhAttr addressVector(KeyMessage peer, int gidIndex, int sl) {
        AhAttr ah = AhAttr.roce(peer.gid(), gidIndex, PORT);
        ah.sl = sl;
        ah.hopLimit = HOP_LIMIT;
        ah.dlid = peer.lid();
        return ah;
    }

    static void toRtr(QueuePair qp, Mtu mtu, KeyMessage peer, int gidIndex, int ourOutReads) {
        toRtr(qp, mtu, peer, gidIndex, ourOutReads, 0);
    }

    static void toRtr(QueuePair qp, Mtu mtu, KeyMessage peer, int gidIndex, int ourOutReads, int sl) {
        qp.modify(walk(qp).pathMtu(mtu).destQpNum(peer.qpn()).rqPsn(peer.psn()).ahAttr(addressVector(peer, gidIndex, sl))
                .maxDestRdAtomic(ourOutReads).rtr());
    }

    static void toRts(QueuePair qp, int ourPsn, int peerOutReads) {
        toRts(qp, ourPsn, peerOutReads, PerfConfig.Extras.DEFAULT_QP_TIMEOUT);
    }

    static void toRts(QueuePair qp, int ourPsn, int peerOutReads, int timeout) {
        qp.modify(walk(qp).sqPsn(ourPsn).maxRdAtomic(peerOutReads).timeout(timeout).rts());
    }
}
