package org.jrdma.bootstrap;

import java.security.SecureRandom;
import org.jrdma.verbs.AddressHandle;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QpWalk;
import org.jrdma.verbs.QueuePair;

/**
 * The whole of an RDMA program's set-up in one call — the seed's flow: create an RC QP, swap
 * {@link ConnInfo} with the peer over an out-of-band {@link Exchange} (which closes its
 * channel before returning), then walk the QP RESET → INIT → RTR → RTS with the peer's info.
 * (A UD QP needs no peer info for those steps and takes them before the exchange; see connect.
 * A {@link PeerFirstExchange} has RTR and RTS done between reading the peer's info and answering.)
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

    /** A 24-bit initial PSN from {@link SecureRandom} (SEC-05; its entropy is measured by InitialPsnEntropyTest). */
    static int initialPsn() {
        return RANDOM.nextInt() & 0xFFFFFF;
    }

    /**
     * As {@link #connect(ProtectionDomain, Exchange, RcOptions, ConnectListener)} with no listener.
     *
     * @param pd the protection domain the QP is created in
     * @param exchange the out-of-band exchange, used once
     * @param options the QP's settings
     * @return the connection, its QP in RTS
     * @throws BootstrapException when the exchange fails; the QP is then destroyed
     */
    public static RcConnection connect(ProtectionDomain pd, Exchange exchange, RcOptions options) {
        return connect(pd, exchange, options, ConnectListener.NONE);
    }

    /**
     * Creates a QP, swaps connection info with the peer over {@code exchange} and takes the QP
     * through INIT, RTR and RTS as rc_pingpong does ({@code pp_connect_ctx}). An
     * {@link AuthenticatingExchange} authenticates the peer before the QP is created.
     *
     * @param pd the protection domain the QP is created in
     * @param exchange the out-of-band exchange, used once
     * @param o the QP's settings
     * @param listener observes the exchange's phases and each QP transition
     * @return the connection, its QP in RTS
     * @throws BootstrapException when the exchange fails; the QP is then destroyed
     * @throws org.jrdma.verbs.VerbsException when the QP cannot be created or modified
     */
    public static RcConnection connect(ProtectionDomain pd, Exchange exchange, RcOptions o, ConnectListener listener) {
        long start = System.nanoTime();
        RcConnection c;
        if (exchange instanceof AuthenticatingExchange auth && auth.authenticates()) {
            // OOB-11, AUTH-01: the peer proves its key or certificate before the QP exists, so a
            // wrong peer costs no QP and learns no QPN, PSN or GID.
            try (AuthenticatingExchange.Session session = auth.authenticate(listener)) {
                c = connectAuthenticated(pd, session, o, listener);
            }
        } else {
            c = connectAuthenticated(pd, exchange, o, listener);
        }
        ConnectionEvents.established(ConnectionEvents.method(exchange), c, start);
        return c;
    }

    private static RcConnection connectAuthenticated(ProtectionDomain pd, Exchange exchange, RcOptions o, ConnectListener listener) {
        QueuePair qp = createQp(pd, o);
        AddressHandle udAh = null;
        try {
            Gid gid = pd.context().queryGid(o.port(), o.gidIndex());
            RemoteBuffer exposed = o.exposed() == null ? null : RemoteBuffer.of(o.exposed());
            ConnInfo local = new ConnInfo(0, qp.qpNum(), initialPsn(), gid, exposed);
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
            ConnInfo remote;
            if (exchange instanceof PeerFirstExchange early) {
                // rc_pingpong's server order: RTR/RTS as soon as the peer's info is read, before
                // our message (which lets the peer send) goes out. onRemoteInfo keeps its meaning
                // (info in, channel closed), so it follows the QP states here.
                ConnInfo[] connected = {null};
                remote = early.exchange(local, listener, peer -> {
                    toRts(qp, o, local, peer, listener);
                    connected[0] = peer;
                });
                if (connected[0] != remote) {
                    throw new IllegalStateException("the exchange did not hand over the peer's info before replying");
                }
                listener.onRemoteInfo(remote, System.nanoTime());
            } else {
                remote = exchange.exchange(local, listener);
                listener.onRemoteInfo(remote, System.nanoTime());
                toRts(qp, o, local, remote, listener);
            }
            if (o.qpType() == QpType.UD) {
                udAh = pd.createAh(addressVector(o, remote));
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

    /**
     * An exchange that reads the peer's info before it sends ours, and lets {@link #connect}
     * move the QP to RTR and RTS in between — rc_pingpong's server order (pp_server_exch_dest).
     * Once a peer has our info it may send at once: an RC SEND that finds our QP short of RTR is
     * retried only after the ACK timeout, and a UC one is lost, which stalls a ping-pong. The
     * channel is still closed before the exchange returns; nothing is sent on the QP before.
     */
    public interface PeerFirstExchange extends Exchange {
        /**
         * As {@link Exchange#exchange}, calling {@code beforeReply} with the peer's validated info
         * before our message is written (exactly once on success). A throw from it aborts the
         * exchange, which still closes its channel.
         *
         * @param local this side's connection info
         * @param listener observes the exchange's phases
         * @param beforeReply called with the peer's info before ours is sent
         * @return the peer's validated connection info
         */
        ConnInfo exchange(ConnInfo local, ExchangeListener listener, java.util.function.Consumer<ConnInfo> beforeReply);

        @Override
        default ConnInfo exchange(ConnInfo local, ExchangeListener listener) {
            return exchange(local, listener, peer -> { });
        }
    }

    /** A QP of the options' type, CQs and capacities (RcMesh makes one per peer the same way). */
    static QueuePair createQp(ProtectionDomain pd, RcOptions o) {
        return pd.createQp(new QpInitAttr().qpType(o.qpType()).sendCq(o.sendCq()).recvCq(o.recvCq()).cap(o.cap()));
    }

    private static AhAttr addressVector(RcOptions o, ConnInfo remote) {
        AhAttr ah = AhAttr.roce(remote.gid(), o.gidIndex(), o.port());
        ah.dlid = remote.lid();
        ah.hopLimit = o.hopLimit();
        ah.sl = o.sl();
        return ah;
    }

    /**
     * The walk with the options' values (rc_pingpong's unless changed) and our send PSN; each
     * step takes what its transport uses, as ibv_rc_pingpong, ibv_uc_pingpong and ibv_ud_pingpong
     * do (ROCEV2-FACTS §3.2): UC has no ACKs, so no timeout, retries, RNR timer or read depth;
     * UD a Q_Key at INIT, nothing but the state at RTR.
     */
    private static QpWalk walk(RcOptions o, ConnInfo local) {
        return QpWalk.rcPingpong(o.qpType()).port(o.port()).accessFlags(o.qpAccessFlags()).qkey(o.qkey())
                .pathMtu(o.mtu()).maxDestRdAtomic(o.maxDestRdAtomic()).minRnrTimer(o.minRnrTimer()).sqPsn(local.psn())
                .timeout(o.timeout()).retryCnt(o.retryCnt()).rnrRetry(o.rnrRetry()).maxRdAtomic(o.maxRdAtomic());
    }

    /**
     * RC and UC: INIT → RTR → RTS with the peer's info (a UD QP is there already). Every
     * transport first checks that both sides are on shm or neither is: the QP takes nothing from
     * a peer it cannot reach (ProviderMismatchException).
     */
    static void toRts(QueuePair qp, RcOptions o, ConnInfo local, ConnInfo remote, ConnectListener listener) {
        ProviderMismatchException.check(local.gid(), remote.gid());
        if (o.qpType() == QpType.UD) {
            return;
        }
        walk(qp, o, walk(o, local).destQpNum(remote.qpn()).rqPsn(remote.psn()).ahAttr(addressVector(o, remote)),
                listener);
    }

    /**
     * A UD QP's walk, done before the exchange (see connect). The peer is reached through an
     * address handle for its GID, made after the exchange.
     */
    private static void readyUd(QueuePair qp, RcOptions o, ConnInfo local, ConnectListener listener) {
        walk(qp, o, walk(o, local), listener);
    }

    /** The three steps, telling the listener of each; receives are posted in INIT (onInit). */
    private static void walk(QueuePair qp, RcOptions o, QpWalk walk, ConnectListener listener) {
        qp.modify(walk.init());
        listener.onQpState(QpState.INIT, System.nanoTime());
        o.onInit().accept(qp);
        qp.modify(walk.rtr());
        listener.onQpState(QpState.RTR, System.nanoTime());
        qp.modify(walk.rts());
        listener.onQpState(QpState.RTS, System.nanoTime());
    }
}
