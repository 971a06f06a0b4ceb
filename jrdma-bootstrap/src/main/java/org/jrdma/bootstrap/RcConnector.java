package org.jrdma.bootstrap;

import java.security.SecureRandom;
import org.jrdma.verbs.AddressHandle;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QueuePair;

/**
 * The whole of an RDMA program's set-up in one call — the seed's flow: create an RC QP, swap
 * {@link ConnInfo} with the peer over an out-of-band {@link Exchange} (which closes its
 * channel before returning), then walk the QP RESET → INIT → RTR → RTS with the peer's info.
 * (A UD QP needs no peer info for those steps and takes them before the exchange; see connect.)
 * From then on data moves by RDMA alone.
 *
 * <pre>{@code
 * try (Context ctx = Verbs.device(null).open()) {
 *     ProtectionDomain pd = ctx.allocPd();
 *     CompletionQueue cq = ctx.createCq(128, null);
 *     RcConnection c = RcConnector.connect(pd, new TcpClientExchange("server", 18515), RcOptions.defaults(cq));
 *     c.qp().postSend(...);   // RDMA from here on
 * }
 * }</pre>
 *
 * The initial PSN comes from {@link java.security.SecureRandom}, never from pid × time as
 * rc_pingpong's does (RELIABILITY-SECURITY SEC-05).
 */
public final class RcConnector {
    private static final SecureRandom RANDOM = new SecureRandom();

    private RcConnector() {
    }

    public static RcConnection connect(ProtectionDomain pd, Exchange exchange, RcOptions options) {
        return connect(pd, exchange, options, ConnectListener.NONE);
    }

    public static RcConnection connect(ProtectionDomain pd, Exchange exchange, RcOptions o, ConnectListener listener) {
        QueuePair qp = pd.createQp(new QpInitAttr().qpType(o.qpType()).sendCq(o.sendCq()).recvCq(o.recvCq()).cap(o.cap()));
        AddressHandle udAh = null;
        try {
            Gid gid = pd.context().queryGid(o.port(), o.gidIndex());
            ConnInfo local = new ConnInfo(0, qp.qpNum(), RANDOM.nextInt() & 0xFFFFFF, gid);
            listener.onLocalInfo(local, System.nanoTime());
            if (o.qpType() == QpType.UD) {
                // A UD QP's INIT, RTR and RTS take nothing from the peer, so it is ready (its
                // receives posted) before the exchange: our message goes out first (both sides
                // write first), and an ibv_ud_pingpong client sends its first datagram right after
                // "done" — with the QP still short of RTR that datagram was dropped and the
                // ping-pong stalled for good (UD has no retry). Nothing is sent before the socket
                // is closed: the first post comes after connect returns.
                readyUd(qp, o, local, listener);
            }
            ConnInfo remote = exchange.exchange(local, listener);
            listener.onRemoteInfo(remote, System.nanoTime());

            AhAttr ah = AhAttr.roce(remote.gid(), o.gidIndex(), o.port());
            ah.dlid = remote.lid();
            ah.hopLimit = o.hopLimit();
            ah.sl = o.sl();
            switch (o.qpType()) {
                case RC -> toRtsRc(qp, o, ah, local, remote, listener);
                case UC -> toRtsUc(qp, o, ah, local, remote, listener);
                default -> udAh = pd.createAh(ah);
            }
            if (o.qpType() != QpType.UD) {
                listener.onQpState(QpState.RTS, System.nanoTime());
            }
            return new RcConnection(qp, local, remote, udAh);
        } catch (RuntimeException e) {
            if (udAh != null) {
                udAh.close();
            }
            qp.close(); // OOB-14: a failed set-up leaves no QP behind
            throw e;
        }
    }

    private static void toInit(QueuePair qp, RcOptions o, QpAttr init, ConnectListener listener) {
        qp.modify(init.state(QpState.INIT).pkeyIndex(0).port(o.port()));
        listener.onQpState(QpState.INIT, System.nanoTime());
        o.onInit().accept(qp);
    }

    private static void toRtr(QueuePair qp, QpAttr rtr, ConnectListener listener) {
        qp.modify(rtr.state(QpState.RTR));
        listener.onQpState(QpState.RTR, System.nanoTime());
    }

    /** ibv_rc_pingpong's transitions (ROCEV2-FACTS §3.2). */
    private static void toRtsRc(QueuePair qp, RcOptions o, AhAttr ah, ConnInfo local, ConnInfo remote, ConnectListener listener) {
        toInit(qp, o, new QpAttr().accessFlags(o.accessFlags()), listener);
        toRtr(qp, new QpAttr().pathMtu(o.mtu()).destQpNum(remote.qpn()).rqPsn(remote.psn())
                .maxDestRdAtomic(o.maxDestRdAtomic()).minRnrTimer(o.minRnrTimer()).ahAttr(ah), listener);
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(local.psn()).timeout(o.timeout()).retryCnt(o.retryCnt())
                .rnrRetry(o.rnrRetry()).maxRdAtomic(o.maxRdAtomic()));
    }

    /** ibv_uc_pingpong's: no ACKs, so no timeout, retries, RNR timer or read depth. */
    private static void toRtsUc(QueuePair qp, RcOptions o, AhAttr ah, ConnInfo local, ConnInfo remote, ConnectListener listener) {
        toInit(qp, o, new QpAttr().accessFlags(o.accessFlags()), listener);
        toRtr(qp, new QpAttr().pathMtu(o.mtu()).destQpNum(remote.qpn()).rqPsn(remote.psn()).ahAttr(ah), listener);
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(local.psn()));
    }

    /**
     * ibv_ud_pingpong's: a Q_Key at INIT, nothing but the state at RTR, the send PSN at RTS;
     * done before the exchange (see connect). The peer is reached through an address handle for
     * its GID, made after the exchange.
     */
    private static void readyUd(QueuePair qp, RcOptions o, ConnInfo local, ConnectListener listener) {
        toInit(qp, o, new QpAttr().qkey(o.qkey()), listener);
        toRtr(qp, new QpAttr(), listener);
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(local.psn()));
        listener.onQpState(QpState.RTS, System.nanoTime());
    }
}
