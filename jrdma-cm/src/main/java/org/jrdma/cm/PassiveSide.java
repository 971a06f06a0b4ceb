package org.jrdma.cm;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.jrdma.cm.wire.CmFormatException;
import org.jrdma.cm.wire.CmaHeader;
import org.jrdma.cm.wire.PortSpace;
import org.jrdma.cm.wire.Rej;
import org.jrdma.cm.wire.Req;
import org.jrdma.cm.wire.RejectReason;
import org.jrdma.cm.wire.Rtu;
import org.jrdma.cm.wire.ServiceId;
import org.jrdma.verbs.DeviceAttr;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QueuePair;

/** The listening side of RC: REQ in (a new id), accept (QP to RTR and RTS, then REP), RTU in (§7.9). Under the agent's lock. */
final class PassiveSide {
    private PassiveSide() {
    }

    static void onReq(CmAgent a, InetAddress src, long tid, Req req) {
        CmConn.PassiveKey key = new CmConn.PassiveKey(src, req.localCommId());
        CmConn known = a.passive(key);
        if (known != null) {
            duplicate(known);
            return;
        }
        PortSpace space = ServiceId.portSpace(req.serviceId());
        CmaHeader cma;
        try {
            cma = CmaHeader.decode(req.privateData());
        } catch (CmFormatException | RuntimeException e) {
            a.counters().drop("bad_cma_header");
            return;
        }
        CmId listener = space == PortSpace.TCP
                ? CmRegistry.listener(space, ServiceId.port(req.serviceId()), a.address(), cma.destination()) : null;
        if (listener == null) {
            // no one listens: REJ "invalid service ID" with local comm ID 0 (§7.9, §7.10)
            a.counters().add("rejected_no_listener");
            a.send(src, CmMessages.rej(tid, 0, req.localCommId(), Rej.REJECTED_REQ, RejectReason.INVALID_SERVICE_ID.code(), new byte[0]));
            return;
        }
        if (!listener.reserveBacklog()) {
            // the kernel's ucma returns -ENOMEM and ib_cm drops such a REQ unanswered "to allow
            // future retries" (cm_destroy_id): the connector sends it again after its timeout
            a.counters().drop("backlog_full");
            return;
        }
        if (!listener.reservePeerSlot(src)) {
            listener.requestRetrieved(); // gives the backlog slot back
            a.counters().drop("peer_pending_limit"); // SEC-31: this peer has half the backlog already
            return;
        }
        CmId id = CmId.passive(listener, a, new InetSocketAddress(cma.destination(), ServiceId.port(req.serviceId())),
                new InetSocketAddress(src, cma.sourcePort()));
        CmConn c = id.conn();
        c.peer = src;
        a.newCommId(c);
        a.rememberPassive(c, key);
        c.remoteCommId = req.localCommId();
        c.tid = tid;
        c.remoteQpn = req.localQpn();
        c.remotePsn = req.startingPsn();
        // cm_format_req_event: the peer's initiator depth is what we serve, and the other way round
        c.responderResources = req.initiatorDepth();
        c.initiatorDepth = req.responderResources();
        c.retryCount = req.retryCount();
        c.rnrRetryCount = req.rnrRetryCount();
        c.flowControl = req.endToEndFlowControl();
        c.srq = req.srq();
        Mtu theirs = Mtu.MTU_1024;
        for (Mtu m : Mtu.values()) {
            if (m.value() == req.pathMtu()) {
                theirs = m;
            }
        }
        c.mtu = theirs.value() < a.activeMtu().value() ? theirs : a.activeMtu();
        // As Linux's ib_cm (packet_life_time = timeout − 1 if > 0, then av.timeout = life + 1): a
        // REQ's 0 becomes 1, so a peer can never turn our retransmit timer off (REL-14).
        c.ackTimeout = Math.max(1, req.primaryPath().localAckTimeout());
        c.state = CmState.REQ_RCVD;
        ConnParam peer = new ConnParam(null, req.initiatorDepth(), req.responderResources(), req.retryCount(),
                req.rnrRetryCount(), req.endToEndFlowControl(), req.srq(), req.localQpn());
        id.emit(CmEventType.CONNECT_REQUEST, 0, CmMessages.padded(CmaHeader.userData(req.privateData()), ActiveSide.REQ_USER_DATA),
                peer, null, listener);
    }

    /** A REQ we have seen: in REP_SENT our REP was lost, so send it again (cm_dup_req_handler); otherwise ignore it. */
    private static void duplicate(CmConn c) {
        c.agent.counters().add(CmCounters.DUPLICATES);
        if (c.state == CmState.REP_SENT && c.lastAnswer != null) {
            c.send(c.lastAnswer);
        }
    }

    /** rdma_accept: the QP to RTR and RTS before the REP leaves (cma_accept_ib, §7.8). */
    static void accept(CmConn c, ConnParam p, QueuePair qp) {
        DeviceAttr attr = c.agent.deviceAttr();
        c.responderResources = p.responderResources() == ConnParam.DEVICE_MAX
                ? Math.min(c.responderResources, attr.maxQpRdAtom()) : p.responderResources();
        c.initiatorDepth = p.initiatorDepth() == ConnParam.DEVICE_MAX
                ? Math.min(c.initiatorDepth, attr.maxQpInitRdAtom()) : p.initiatorDepth();
        if (qp != null) {
            CmQp.toRts(qp, c);
        } else {
            c.srq = p.srq();
        }
        int qpn = qp != null ? qp.qpNum() : p.qpNum();
        byte[] rep = CmMessages.rep(c, qpn, Math.min(7, p.rnrRetryCount()), p.privateData());
        c.lastAnswer = rep;
        c.state = CmState.REP_SENT;
        c.sendWithRetry(rep);
    }

    static void onRtu(CmConn c, Rtu rtu) {
        switch (c.state) {
            case REP_SENT -> {
                c.cancelTimer();
                c.state = CmState.ESTABLISHED;
                c.emit(CmEventType.ESTABLISHED, 0, null, null, null);
            }
            case ESTABLISHED, DREQ_SENT, DREQ_RCVD, TIMEWAIT -> c.agent.counters().add(CmCounters.DUPLICATES);
            default -> c.agent.counters().drop("unexpected_rtu");
        }
    }

    /** rdma_reject of a connection request (REQ_RCVD), or of a REP by an active side that holds no QP (REP_RCVD). */
    static void reject(CmConn c, byte[] data) {
        int reason = RejectReason.CONSUMER_DEFINED.code();
        if (c.state == CmState.REQ_RCVD) {
            c.send(CmMessages.rej(c.tid, 0, c.remoteCommId, Rej.REJECTED_REQ, reason, data));
        } else {
            c.send(CmMessages.rej(c.tid, c.localCommId, c.remoteCommId, Rej.REJECTED_REP, reason, data));
        }
        c.toIdle();
    }
}
