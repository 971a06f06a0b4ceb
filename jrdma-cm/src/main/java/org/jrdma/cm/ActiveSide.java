package org.jrdma.cm;

import org.jrdma.cm.wire.CmaHeader;
import org.jrdma.cm.wire.Mra;
import org.jrdma.cm.wire.Rej;
import org.jrdma.cm.wire.Rep;
import org.jrdma.cm.wire.RejectReason;
import org.jrdma.verbs.DeviceAttr;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.VerbsException;

/** The connecting side of RC: REQ out, REP in, the QP to RTR and RTS, RTU out (§7.9). Under the agent's lock. */
final class ActiveSide {
    /** REQ private data: the IB CM's 92 bytes less the 36-byte cma_hdr (§7.3). */
    static final int REQ_USER_DATA = CmaHeader.USER_DATA_SIZE;
    static final int REP_PRIVATE_DATA = Rep.PRIVATE_DATA_SIZE;
    static final int REJ_PRIVATE_DATA = Rej.PRIVATE_DATA_SIZE;

    private ActiveSide() {
    }

    /** rdma_connect for RC/UC: fills the REQ as the kernel does (§7.8) and sends it, retried on the CM timeout. */
    static void connect(CmConn c, ConnParam p, long serviceId, CmaHeader cma, QueuePair qp) {
        DeviceAttr attr = c.agent.deviceAttr();
        c.agent.newCommId(c);
        c.tid = c.agent.tid(c.localCommId);
        c.responderResources = p.responderResources() == ConnParam.DEVICE_MAX ? attr.maxQpRdAtom() : p.responderResources();
        c.initiatorDepth = p.initiatorDepth() == ConnParam.DEVICE_MAX ? attr.maxQpInitRdAtom() : p.initiatorDepth();
        c.retryCount = Math.min(7, p.retryCount());
        c.rnrRetryCount = Math.min(7, p.rnrRetryCount());
        c.flowControl = p.flowControl();
        c.srq = qp != null ? c.id.qpUsesSrq() : p.srq();
        c.mtu = c.agent.activeMtu();
        c.ackTimeout = CmQp.ackTimeout(attr.localCaAckDelay());
        int qpn = qp != null ? qp.qpNum() : p.qpNum();
        int transport = qp != null && qp.qpType() == org.jrdma.verbs.QpType.UC ? 1 : 0;
        byte[] req = CmMessages.req(c, serviceId, cma, p.privateData(), qpn, transport, c.options().maxRetries());
        c.state = CmState.REQ_SENT;
        c.sendWithRetry(req);
    }

    static void onRep(CmConn c, Rep rep) {
        switch (c.state) {
            case REQ_SENT -> accepted(c, rep);
            case ESTABLISHED -> {
                // cm_dup_rep_handler: our RTU was lost; say it again
                if (rep.localCommId() == c.remoteCommId && c.lastAnswer != null) {
                    c.agent.counters().add(CmCounters.DUPLICATES);
                    c.send(c.lastAnswer);
                } else {
                    c.agent.counters().drop("wrong_comm_id");
                }
            }
            case REP_RCVD, DREQ_SENT, DREQ_RCVD, TIMEWAIT -> c.agent.counters().add(CmCounters.DUPLICATES);
            default -> c.agent.counters().drop("unexpected_rep");
        }
    }

    private static void accepted(CmConn c, Rep rep) {
        c.cancelTimer();
        c.remoteCommId = rep.localCommId();
        c.remoteQpn = rep.localQpn();
        c.remotePsn = rep.startingPsn();
        // cm_rep_handler: our initiator depth is what the peer serves, our responder resources what it issues
        c.initiatorDepth = Math.min(c.initiatorDepth, rep.responderResources());
        c.responderResources = Math.min(c.responderResources, rep.initiatorDepth());
        c.rnrRetryCount = rep.rnrRetryCount();
        c.ackTimeout = CmQp.ackTimeout(rep.targetAckDelay());
        byte[] data = CmMessages.padded(rep.privateData(), REP_PRIVATE_DATA);
        ConnParam peer = new ConnParam(null, rep.initiatorDepth(), rep.responderResources(), c.retryCount,
                rep.rnrRetryCount(), rep.endToEndFlowControl(), rep.srq(), rep.localQpn());
        QueuePair qp = c.id.qp();
        if (qp == null) {
            c.state = CmState.REP_RCVD;
            c.emit(CmEventType.CONNECT_RESPONSE, 0, data, peer, null);
            return;
        }
        try {
            CmQp.toRts(qp, c);
        } catch (VerbsException e) {
            // cma_rep_recv failing: REJ the REP and tell the user CONNECT_ERROR
            c.send(CmMessages.rej(c.tid, c.localCommId, c.remoteCommId, Rej.REJECTED_REP,
                    RejectReason.CONSUMER_DEFINED.code(), new byte[0]));
            c.toIdle();
            c.emit(CmEventType.CONNECT_ERROR, -e.errno().value(), null, null, null);
            return;
        }
        establish(c);
        c.emit(CmEventType.ESTABLISHED, 0, data, peer, null);
    }

    /** Sends the RTU (also rdma_establish after CONNECT_RESPONSE); the connection is established. */
    static void establish(CmConn c) {
        c.lastAnswer = CmMessages.rtu(c);
        c.send(c.lastAnswer);
        c.state = CmState.ESTABLISHED;
    }

    /** A REJ for our REQ or REP (or, on the passive side, for our REP): REJECTED with the reason. */
    static void onRej(CmConn c, Rej rej) {
        switch (c.state) {
            case REQ_SENT -> {
                // the REJ of a REQ may carry local comm ID 0 (§7.10): the remote ID and the source address are the check
            }
            case REP_SENT, REP_RCVD -> {
                if (rej.localCommId() != c.remoteCommId) {
                    c.agent.counters().drop("wrong_comm_id");
                    return;
                }
            }
            default -> {
                c.agent.counters().drop("unexpected_rej");
                return;
            }
        }
        c.toIdle();
        c.emit(CmEventType.REJECTED, rej.reason(), CmMessages.padded(rej.privateData(), REJ_PRIVATE_DATA), null, null);
    }

    /** An MRA: the peer got our message and needs more time; wait again, from the full retry budget. */
    static void onMra(CmConn c, Mra mra) {
        if (c.state == CmState.REQ_SENT || c.state == CmState.REP_SENT) {
            c.agent.counters().add("mra_received");
            c.arm();
        } else {
            c.agent.counters().drop("unexpected_mra");
        }
    }
}
