package org.jrdma.cm;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.jrdma.cm.wire.CmFormatException;
import org.jrdma.cm.wire.CmaHeader;
import org.jrdma.cm.wire.PortSpace;
import org.jrdma.cm.wire.ServiceId;
import org.jrdma.cm.wire.SidrRep;
import org.jrdma.cm.wire.SidrReq;
import org.jrdma.verbs.AddressHandle;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.QueuePair;

/**
 * UD (port space UDP): service ID resolution. rdma_connect sends a SIDR_REQ (cma_hdr + user
 * data) retried on the CM timeout; the listener's user accepts (a SIDR_REP with its QPN and
 * Q_Key) or rejects; the connector reports ESTABLISHED with the peer's QPN, Q_Key and an
 * address handle, or UNREACHABLE with the SIDR status. Under the agent's lock.
 */
final class SidrSide {
    /** rdma_connect's UD limit: the SIDR_REQ's 216 bytes less the cma_hdr (§7.3). */
    static final int SIDR_REQ_USER_DATA = SidrReq.PRIVATE_DATA_SIZE - CmaHeader.SIZE;
    static final int SIDR_REP_PRIVATE_DATA = SidrRep.PRIVATE_DATA_SIZE;

    private SidrSide() {
    }

    static void connect(CmConn c, ConnParam p, long serviceId, CmaHeader cma) {
        c.agent.newCommId(c); // the request ID
        c.tid = c.agent.tid(c.localCommId);
        c.state = CmState.SIDR_REQ_SENT;
        c.sendWithRetry(CmMessages.sidrReq(c, serviceId, cma, p.privateData()));
    }

    static void onReply(CmConn c, SidrRep rep) {
        if (c.state != CmState.SIDR_REQ_SENT) {
            c.agent.counters().add(CmCounters.DUPLICATES);
            return;
        }
        c.toIdle();
        byte[] data = CmMessages.padded(rep.privateData(), SIDR_REP_PRIVATE_DATA);
        if (rep.status() != CmMessages.SIDR_SUCCESS) {
            c.emit(CmEventType.UNREACHABLE, rep.status(), data, null, null);
            return;
        }
        c.remoteQpn = rep.qpn();
        c.remoteQkey = rep.qkey();
        c.state = CmState.ESTABLISHED;
        AhAttr av = CmQp.addressVector(Gid.of(c.peer));
        QueuePair qp = c.id.qp();
        AddressHandle ah = qp == null ? null : c.id.ownAh(qp.pd().createAh(av));
        c.emit(CmEventType.ESTABLISHED, 0, data, null, new UdParam(av, ah, rep.qpn(), rep.qkey()));
    }

    static void onRequest(CmAgent a, InetAddress src, long tid, SidrReq req) {
        CmConn.PassiveKey key = new CmConn.PassiveKey(src, req.requestId());
        CmConn known = a.passive(key);
        if (known != null) {
            a.counters().add(CmCounters.DUPLICATES);
            if (known.lastAnswer != null) {
                known.send(known.lastAnswer);
            }
            return;
        }
        CmaHeader cma;
        try {
            cma = CmaHeader.decode(req.privateData());
        } catch (CmFormatException | RuntimeException e) {
            a.counters().drop("bad_cma_header");
            return;
        }
        PortSpace space = ServiceId.portSpace(req.serviceId());
        CmId listener = space == PortSpace.UDP
                ? CmRegistry.listener(space, ServiceId.port(req.serviceId()), a.address(), cma.destination()) : null;
        if (listener == null) {
            a.counters().add("rejected_no_listener");
            a.send(src, CmMessages.sidrRep(tid, req.requestId(), CmMessages.SIDR_UNSUPPORTED, 0, req.serviceId(), 0, new byte[0]));
            return;
        }
        if (!listener.reserveBacklog()) {
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
        c.tid = tid;
        c.remoteCommId = req.requestId();
        a.rememberPassive(c, key);
        c.state = CmState.SIDR_REQ_RCVD;
        AhAttr av = CmQp.addressVector(Gid.of(src));
        id.emit(CmEventType.CONNECT_REQUEST, 0, java.util.Arrays.copyOfRange(req.privateData(), CmaHeader.SIZE, SidrReq.PRIVATE_DATA_SIZE),
                null, new UdParam(av, null, 0, 0), listener);
    }

    /** rdma_accept on a UD id: a SIDR_REP with our QPN and Q_Key. Kept to answer a repeated SIDR_REQ. */
    static void accept(CmConn c, ConnParam p, QueuePair qp, long serviceId) {
        int qpn = qp != null ? qp.qpNum() : p.qpNum();
        c.lastAnswer = CmMessages.sidrRep(c.tid, c.remoteCommId, CmMessages.SIDR_SUCCESS, qpn, serviceId, CmQp.UDP_QKEY,
                p.privateData());
        c.send(c.lastAnswer);
        c.state = CmState.ESTABLISHED;
    }

    static void reject(CmConn c, byte[] data, long serviceId) {
        c.lastAnswer = CmMessages.sidrRep(c.tid, c.remoteCommId, CmMessages.SIDR_REJECT, 0, serviceId, 0, data);
        c.send(c.lastAnswer);
        c.state = CmState.IDLE;
    }
}
