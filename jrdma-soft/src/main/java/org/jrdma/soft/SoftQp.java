package org.jrdma.soft;

import java.net.InetSocketAddress;
import java.util.Map;
import org.jrdma.soft.engine.ActiveQps;
import org.jrdma.soft.engine.EngineQp;
import org.jrdma.soft.engine.SoftHca;
import org.jrdma.soft.net.RoceEndpoint;
import org.jrdma.soft.net.UdpDatagrams;
import org.jrdma.soft.transport.TransportQp;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.PostException;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpAttrMask;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.spi.QpTransitions;

/**
 * A soft queue pair (RC, UC, UD, or the GSI QP, which is a UD QP numbered 1). The verbs side (validation, attributes) lives here; the transport
 * state is a {@link TransportQp} that the device engine drives. Both sides synchronize on
 * this object, so a call never observes the engine half-way through a packet.
 */
public final class SoftQp implements QueuePair, EngineQp {
    private static final System.Logger LOG = System.getLogger(SoftQp.class.getName());
    private final SoftPd pd;
    private final SoftHca hca;
    private final SoftCq sendCq;
    private final SoftCq recvCq;
    private final QpCap cap;
    private final TransportQp transport;
    private final ActiveQps.Slot activeSlot = new ActiveQps.Slot();
    private final SoftSrq srq;
    /** The QP's MXBean until it is destroyed (JMX: org.jrdma:type=QueuePair,device=…,qpn=0x…). */
    private final org.jrdma.verbs.jmx.Jmx.Registration jmx;
    // Attributes kept only to be reported by query (the transport does not use them).
    private int pkeyIndex;
    private int portNum;
    private boolean closed;
    private long doorbells;

    SoftQp(SoftPd pd, SoftHca hca, int qpn, QpInitAttr init) {
        if (init.qpType() != QpType.RC && init.qpType() != QpType.UC && !init.qpType().isDatagram()) {
            throw new VerbsException(Errno.EOPNOTSUPP, "create_qp: " + init.qpType()
                    + " QPs are not supported by the soft provider (RC, UC, UD, GSI)");
        }
        if (!(init.sendCq() instanceof SoftCq s) || !(init.recvCq() instanceof SoftCq r)) {
            throw new VerbsException(Errno.EINVAL, "create_qp: send and receive CQs of this device are required");
        }
        QpCap c = init.cap();
        check("max_send_wr", c.maxSendWr(), 1, SoftLimits.MAX_QP_WR);
        check("max_recv_wr", c.maxRecvWr(), 1, SoftLimits.MAX_QP_WR);
        check("max_send_sge", c.maxSendSge(), 0, SoftLimits.MAX_SGE);
        check("max_recv_sge", c.maxRecvSge(), 0, SoftLimits.MAX_SGE);
        check("max_inline_data", c.maxInlineData(), 0, SoftLimits.MAX_INLINE_DATA);
        this.pd = pd;
        this.hca = hca;
        this.sendCq = s;
        this.recvCq = r;
        // Like rxe, grant at least what was asked; inline space is whatever the limit allows.
        this.cap = new QpCap(c.maxSendWr(), c.maxRecvWr(), Math.max(1, c.maxSendSge()), Math.max(1, c.maxRecvSge()),
                c.maxInlineData());
        SoftSrq srq = null;
        if (init.srq() != null) {
            if (!(init.srq() instanceof SoftSrq soft) || soft.pd() != pd) {
                throw new VerbsException(Errno.EINVAL, "create_qp: the SRQ belongs to another protection domain or provider");
            }
            srq = soft;
        }
        this.srq = srq;
        SoftContext context = pd.softContext();
        this.transport = new TransportQp(qpn, init.qpType(), pd.id(), hca.memory(), new CqSink(s), new CqSink(r), init.sqSigAll(),
                cap.maxSendWr(), cap.maxRecvWr(), cap.maxSendSge(), cap.maxRecvSge(), cap.maxInlineData(), hca.counters(),
                hca.activeMtu().bytes(), srq, type -> context.postAsync(type, this, null, null, 0), this);
        transport.device = hca.name();
        if (srq != null) {
            srq.attach();
        }
        s.attachQp();
        r.attachQp(); // counted per use, so a CQ shared by both queues is attached twice
        jmx = org.jrdma.verbs.jmx.Jmx.registerQueuePair(hca.name(), qpn, new QpBean(this, hca.name()));
    }

    private static void check(String what, int value, int min, int max) {
        if (value < min || value > max) {
            throw new VerbsException(Errno.EINVAL, "create_qp: " + what + " " + value + " outside " + min + ".." + max);
        }
    }

    @Override
    public TransportQp transport() {
        return transport;
    }

    @Override
    public ActiveQps.Slot activeSlot() {
        return activeSlot;
    }

    @Override
    public int qpNum() {
        return transport.qpn;
    }

    @Override
    public QpType qpType() {
        return transport.type;
    }

    @Override
    public synchronized QpState state() {
        return transport.state();
    }

    @Override
    public ProtectionDomain pd() {
        return pd;
    }

    @Override
    public CompletionQueue sendCq() {
        return sendCq;
    }

    @Override
    public CompletionQueue recvCq() {
        return recvCq;
    }

    @Override
    public QpCap cap() {
        return cap;
    }

    /** Per-QP transport counters (packets, retransmissions, NAKs …). */
    @Override
    public Map<String, Long> counters() {
        return transport.counters.snapshot();
    }

    @Override
    public void modify(QpAttr attr, int mask) {
        if (QpAttrMask.STATE.in(mask) && (attr.qpState() == QpState.RESET || attr.qpState() == QpState.ERR)) {
            hca.flushHeldAck(this);
        }
        synchronized (this) {
            checkOpen("modify_qp");
            QpState current = transport.state();
            QpState target = QpTransitions.check(transport.type, current, attr, mask);
            String what = "modify_qp " + current + "→" + target;
            // Validate everything before changing anything: a refused call modifies nothing.
            if (QpAttrMask.PORT.in(mask)) {
                SoftContext.checkPort(what, attr.port());
            }
            if (QpAttrMask.PKEY_INDEX.in(mask) && attr.pkeyIndex() != 0) {
                throw new VerbsException(Errno.EINVAL, what + ": PKEY_INDEX " + attr.pkeyIndex() + " outside the P_Key table (1 entry: 0)");
            }
            if (QpAttrMask.PATH_MTU.in(mask) && attr.pathMtu().bytes() > hca.activeMtu().bytes()) {
                throw new VerbsException(Errno.EINVAL, what + ": PATH_MTU " + attr.pathMtu().bytes()
                        + " exceeds the port's active MTU " + hca.activeMtu().bytes());
            }
            if (QpAttrMask.MAX_QP_RD_ATOMIC.in(mask) && attr.maxRdAtomic() > SoftLimits.MAX_QP_RD_ATOM) {
                throw new VerbsException(Errno.EINVAL, what + ": MAX_QP_RD_ATOMIC " + attr.maxRdAtomic() + " exceeds " + SoftLimits.MAX_QP_RD_ATOM);
            }
            if (QpAttrMask.MAX_DEST_RD_ATOMIC.in(mask) && attr.maxDestRdAtomic() > SoftLimits.MAX_QP_RD_ATOM) {
                throw new VerbsException(Errno.EINVAL, what + ": MAX_DEST_RD_ATOMIC " + attr.maxDestRdAtomic() + " exceeds " + SoftLimits.MAX_QP_RD_ATOM);
            }
            if (QpAttrMask.TIMEOUT.in(mask) && attr.timeout() == 0) {
                // REL-14: timeout 0 turns the retransmit timer off, and a lost packet then hangs the QP
                // until it is moved to ERR. Refused unless asked for explicitly; warned about when it is.
                if (!attr.isTimeoutInfinite()) {
                    throw new VerbsException(Errno.EINVAL, what + ": TIMEOUT 0 means no retransmit timer, so a lost packet"
                            + " would stall the QP for ever; use QpAttr.timeoutInfinite() if that is really wanted");
                }
                LOG.log(System.Logger.Level.WARNING, "QP 0x{0}: timeout 0, no retransmit timer: a lost packet stalls it"
                        + " until it is moved to ERR", Integer.toHexString(qpNum()));
            }
            RoceEndpoint peer = QpAttrMask.AV.in(mask) ? peerOf(what, attr.ahAttr()) : null;

            transport.modify(attr, mask);
            if (QpAttrMask.PKEY_INDEX.in(mask)) {
                pkeyIndex = attr.pkeyIndex();
            }
            if (QpAttrMask.PORT.in(mask)) {
                portNum = attr.port();
            }
            if (peer != null) {
                transport.setPath(attr.ahAttr(), peer);
            }
            transport.moveTo(target);
            if (target == QpState.RESET) {
                pkeyIndex = 0;
                portNum = 0;
            }
        }
        hca.ring(this);
    }

    /**
     * The UDP destination of an address vector. RoCE needs a GRH: the peer is named by its
     * GID, which for the soft provider must be an IPv4-mapped address (this version is IPv4
     * only); packets go to that address, port 4791.
     */
    private RoceEndpoint peerOf(String what, AhAttr ah) {
        if (!ah.isGlobal) {
            throw new VerbsException(Errno.EINVAL, what + ": AV has no GRH; on RoCE the address vector must be global "
                    + "with the peer's GID (rc_pingpong: pass -g 0)");
        }
        if (ah.sgidIndex != 0) {
            throw new VerbsException(Errno.EINVAL, what + ": AV sgid_index " + ah.sgidIndex + " outside the GID table (1 entry: 0)");
        }
        checkDgidFamily(what, ah.dgid, hca.isIpv6());
        return RoceEndpoint.of(new InetSocketAddress(ah.dgid.toInetAddress(), UdpDatagrams.ROCE_PORT));
    }

    /**
     * Refuses a DGID the device cannot reach: an IPv4 device talks to IPv4-mapped GIDs
     * (::ffff:a.b.c.d) only, an IPv6 device to non-mapped IPv6 GIDs only (one socket, one family).
     */
    static void checkDgidFamily(String what, org.jrdma.verbs.Gid dgid, boolean ipv6Device) {
        if (dgid == null || dgid.isZero()) {
            throw new VerbsException(Errno.EINVAL, what + ": AV dgid " + dgid + " names no peer");
        }
        if (!ipv6Device && !dgid.isIpv4Mapped()) {
            throw new VerbsException(Errno.EINVAL, what + ": AV dgid " + dgid
                    + " is not an IPv4-mapped GID (::ffff:a.b.c.d); this device is IPv4 (an IPv6 peer needs an IPv6 soft device)");
        }
        if (ipv6Device && dgid.isIpv4Mapped()) {
            throw new VerbsException(Errno.EINVAL, what + ": AV dgid " + dgid
                    + " is IPv4-mapped but this device is IPv6; give it an IPv6 GID or use an IPv4 device");
        }
        if (ipv6Device && dgid.isMulticast()) {
            throw new VerbsException(Errno.EINVAL, what + ": AV dgid " + dgid + " is multicast (not supported)");
        }
    }

    @Override
    public synchronized QpAttr query() {
        checkOpen("query_qp");
        QpAttr a = new QpAttr()
                .state(transport.state())
                .curState(transport.state())
                .pathMtu(transport.mtu())
                .rqPsn(transport.rqPsn())
                .sqPsn(transport.sqPsn())
                .destQpNum(transport.destQpn())
                .accessFlags(transport.accessFlags())
                .cap(cap)
                .pkeyIndex(pkeyIndex)
                .port(portNum)
                .maxRdAtomic(transport.maxRdAtomic())
                .maxDestRdAtomic(transport.maxDestRdAtomic())
                .minRnrTimer(transport.minRnrTimer())
                .timeout(transport.timeout())
                .retryCnt(transport.retryCnt())
                .rnrRetry(transport.rnrRetry())
                .qkey(transport.qkey());
        if (transport.ah() != null) {
            a.ahAttr(transport.ah().copy());
        }
        return a;
    }

    /** ibv_post_recv of {@code wr} and its {@code next} chain, under one acquisition of this QP's monitor. */
    @Override
    public void postRecv(RecvWorkRequest wr) {
        synchronized (this) {
            if (closed) {
                throw PostException.of(new VerbsException(Errno.EINVAL, "post_recv: the QP was destroyed"), wr, 0);
            }
            transport.postRecv(wr);
        }
        // A receive can unblock nothing on the send side; the responder looks at the RQ when
        // the next request arrives (an RNR'd sender retries on its own timer).
    }

    /**
     * ibv_post_send of {@code wr} and its {@code next} chain: checked and queued under one
     * acquisition of this QP's monitor, then one doorbell (wake the engine, progress on this
     * thread) after the last WR queued — also when a later WR was refused, so that the ones
     * before it go.
     */
    @Override
    public void postSend(SendWorkRequest wr) {
        PostException refused = null;
        boolean behindOthers;
        synchronized (this) {
            if (closed) {
                throw PostException.of(new VerbsException(Errno.EINVAL, "post_send: the QP was destroyed"), wr, 0);
            }
            behindOthers = transport.sendsOutstanding();
            try {
                transport.postSend(wr);
            } catch (PostException e) {
                if (e.posted() == 0) {
                    throw e;
                }
                refused = e;
            }
            doorbells++;
        }
        hca.ring(this);
        // Send now on this thread if the engine is free (rxe runs the requester inline too) —
        // unless earlier WRs are still in flight and the application polls: then the pass of its
        // next poll sends this one with whatever else it posts meanwhile, in one batch.
        hca.progressAfterPost(behindOthers);
        if (refused != null) {
            throw refused;
        }
    }

    /** How many post_send calls rang the doorbell (one per list): for tests of post lists. */
    synchronized long doorbells() {
        return doorbells;
    }

    @Override
    public int bindMw(org.jrdma.verbs.MemoryWindow mw, org.jrdma.verbs.MwBind bind, long wrId, boolean signaled) {
        if (!(mw instanceof SoftMw soft)) {
            throw new VerbsException(Errno.EINVAL, "bind_mw: the window belongs to another provider");
        }
        int rkey;
        synchronized (this) {
            checkOpen("bind_mw");
            rkey = transport.postBind(wrId, soft.window(), bind, signaled);
        }
        hca.ring(this);
        hca.progressFromApp();
        return rkey;
    }

    private void checkOpen(String op) {
        if (closed) {
            throw new VerbsException(Errno.EINVAL, op + ": the QP was destroyed");
        }
    }

    /** ibv_destroy_qp: outstanding WRs vanish without completions, as after → RESET. */
    @Override
    public void close() {
        hca.flushHeldAck(this);
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            transport.moveTo(QpState.RESET);
        }
        hca.removeQp(this);
        org.jrdma.soft.engine.FlightEvents.qpClosed(transport);
        jmx.close();
        sendCq.detachQp();
        recvCq.detachQp();
        if (srq != null) {
            srq.detach();
        }
        pd.forget(this);
    }

    /** Adapts a {@link SoftCq} to the transport's completion sink. */
    private record CqSink(SoftCq cq) implements org.jrdma.soft.transport.CompletionSink {
        @Override
        public org.jrdma.verbs.WorkCompletion claim() {
            return cq.claim();
        }

        @Override
        public void commit(boolean solicited) {
            cq.commit(solicited);
        }
    }
}
