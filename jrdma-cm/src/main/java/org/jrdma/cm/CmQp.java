package org.jrdma.cm;

import org.jrdma.cm.wire.CmDefaults;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QpWalk;
import org.jrdma.verbs.QueuePair;

/** The QP transitions the CM makes, with the attributes rdma_cm gives them (§7.3, §7.8, §7.9). */
final class CmQp {
    /** RDMA_UDP_QKEY: the Q_Key rdma_cm gives UD QPs of port space UDP. */
    static final int UDP_QKEY = 0x01234567;
    static final int HOP_LIMIT = 64;

    private CmQp() {
    }

    /**
     * rdma_create_qp: an RC or UC QP goes to INIT (P_Key index 0, port 1, REMOTE_WRITE); a UD
     * QP goes on to RTR and RTS at once with rdma_cm's Q_Key (cma_init_ud_qp).
     */
    static void initialize(QueuePair qp, int sqPsn) {
        QpWalk walk = QpWalk.of(qp.qpType()).port(1).accessFlags(AccessFlags.REMOTE_WRITE).qkey(UDP_QKEY).sqPsn(sqPsn);
        if (qp.qpType() == QpType.UD) {
            walk.toRts(qp);
            return;
        }
        qp.modify(walk.init());
    }

    /**
     * The QP to RTR and RTS with the connection's values, all from the REQ and REP (no preset:
     * rdma_cm's are its own). First INIT → INIT with the CM's access (REMOTE_WRITE, plus
     * REMOTE_READ and REMOTE_ATOMIC when we serve reads: cm_init_qp_init_attr); then RTR with
     * rq_psn = our own seq (Linux convention), the peer's QPN, the path MTU, max_dest_rd_atomic =
     * responder resources, min_rnr_timer 0; then RTS with sq_psn = the peer's advertised PSN, the
     * ACK timeout, the retry counts and max_rd_atomic = initiator depth.
     */
    static void toRts(QueuePair qp, CmConn c) {
        int access = AccessFlags.REMOTE_WRITE;
        if (qp.qpType() == QpType.RC && c.responderResources > 0) {
            access |= AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC;
        }
        qp.modify(new QpAttr().state(QpState.INIT).accessFlags(access));
        QpWalk walk = QpWalk.of(qp.qpType()).ahAttr(addressVector(c.peer == null ? Gid.ZERO : Gid.of(c.peer)))
                .pathMtu(c.mtu).destQpNum(c.remoteQpn).rqPsn(c.seq).maxDestRdAtomic(c.responderResources)
                .minRnrTimer(0).sqPsn(c.remotePsn).timeout(c.ackTimeout).retryCnt(c.retryCount)
                .rnrRetry(c.rnrRetryCount).maxRdAtomic(c.initiatorDepth);
        qp.modify(walk.rtr());
        qp.modify(walk.rts());
    }

    /** rdma_disconnect: the QP to ERR, which flushes what is outstanding. */
    static void toError(QueuePair qp) {
        if (qp.state() != QpState.ERR && qp.state() != QpState.RESET) {
            qp.modify(new QpAttr().state(QpState.ERR));
        }
    }

    /** The RoCEv2 address vector to a peer GID: global, SGID index 0, port 1, hop limit 64. */
    static AhAttr addressVector(Gid peer) {
        AhAttr ah = AhAttr.roce(peer, 0, 1);
        ah.hopLimit = HOP_LIMIT;
        return ah;
    }

    /** cm_ack_timeout for rdma_cm's packet lifetime on RoCE: with rxe's ACK delay 15 that is 17 (≈ 537 ms). */
    static int ackTimeout(int caAckDelay) {
        return CmDefaults.ackTimeout(caAckDelay, CmDefaults.PACKET_LIFETIME);
    }
}
