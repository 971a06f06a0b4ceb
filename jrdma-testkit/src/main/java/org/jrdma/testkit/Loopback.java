package org.jrdma.testkit;

import java.lang.foreign.Arena;
import java.util.Objects;
import java.util.Random;
import org.jrdma.verbs.AddressHandle;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.CompletionChannel;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QpWalk;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.SharedReceiveQueue;
import org.jrdma.verbs.SrqInitAttr;

/**
 * Two QPs connected to each other, RESET → INIT → RTR → RTS, each with its own PD, send CQ,
 * receive CQ (and optionally a completion channel and an SRQ) and two registered buffers, one
 * to send from and one to receive into. RC by default; UC and UD pairs are built the same way
 * (a UD endpoint gets an address handle to its peer). Both may live in one context or in two.
 * Closing releases everything in reverse order.
 *
 * <p>Over 400 lines because it builds three transports in one or two contexts with their
 * options (channel, SRQ, inline, access, MTU) and releases them in order; each piece is a
 * few lines, and the conformance suites read one fixture.
 */
public final class Loopback implements AutoCloseable {
    /** The Q_Key both QPs of a UD pair use. */
    public static final int UD_QKEY = 0x1234ABCD;

    /** How to build the pair; immutable, each {@code with} returns a changed copy. */
    public static final class Options {
        private Mtu mtu = Mtu.MTU_1024;
        private int bufferBytes = 64 * 1024;
        private QpCap cap = new QpCap(64, 64, 1, 1, 0);
        private int cqEntries = 256;
        private boolean sqSigAll;
        private boolean completionChannel;
        private long seed = 0x5EED;
        private QpType qpType = QpType.RC;
        private int qpAccess = RcAttrs.ACCESS;
        private int mrAccess = RcAttrs.ACCESS;
        private int timeout = RcAttrs.TIMEOUT;
        private int retryCnt = RcAttrs.RETRY_CNT;
        private int rnrRetry = RcAttrs.RNR_RETRY;
        private int minRnrTimer = RcAttrs.MIN_RNR_TIMER;
        private int maxRdAtomic = RcAttrs.RD_ATOMIC;
        private int maxDestRdAtomic = RcAttrs.RD_ATOMIC;
        private QpState peerState = QpState.RTS;
        private SrqInitAttr srq;
        private Endpoint sharedPeer;

        private Options() {
        }

        private Options copy() {
            Options c = new Options();
            c.mtu = mtu;
            c.bufferBytes = bufferBytes;
            c.cap = cap;
            c.cqEntries = cqEntries;
            c.sqSigAll = sqSigAll;
            c.completionChannel = completionChannel;
            c.seed = seed;
            c.qpType = qpType;
            c.qpAccess = qpAccess;
            c.mrAccess = mrAccess;
            c.timeout = timeout;
            c.retryCnt = retryCnt;
            c.rnrRetry = rnrRetry;
            c.minRnrTimer = minRnrTimer;
            c.maxRdAtomic = maxRdAtomic;
            c.maxDestRdAtomic = maxDestRdAtomic;
            c.peerState = peerState;
            c.srq = srq;
            c.sharedPeer = sharedPeer;
            return c;
        }

        /**
         * An RC pair at MTU 1024 with 64 KiB buffers and {@link RcAttrs}' attributes.
         *
         * @return the default options
         */
        public static Options defaults() {
            return new Options();
        }

        /**
         * The path MTU both QPs are brought to RTR with.
         *
         * @param m the path MTU (1024 by default)
         * @return the changed copy
         */
        public Options withMtu(Mtu m) {
            Options c = copy();
            c.mtu = m;
            return c;
        }

        /**
         * The size of each of the four buffers (both sides' send and receive buffers).
         *
         * @param n bytes per buffer (64 KiB by default)
         * @return the changed copy
         */
        public Options withBufferBytes(int n) {
            Options c = copy();
            c.bufferBytes = n;
            return c;
        }

        /**
         * The capabilities both QPs are created with.
         *
         * @param cap the queue sizes and SGE and inline limits
         * @return the changed copy
         */
        public Options withCap(QpCap cap) {
            Options c = copy();
            c.cap = cap;
            return c;
        }

        /**
         * The size of each CQ.
         *
         * @param n the CQ entries asked for (256 by default)
         * @return the changed copy
         */
        public Options withCqEntries(int n) {
            Options c = copy();
            c.cqEntries = n;
            return c;
        }

        /**
         * Whether every send WR completes ({@code sq_sig_all}), not only signaled ones.
         *
         * @param on true for sq_sig_all
         * @return the changed copy
         */
        public Options withSqSigAll(boolean on) {
            Options c = copy();
            c.sqSigAll = on;
            return c;
        }

        /**
         * Gives each side a completion channel that both of its CQs report to.
         *
         * @param on whether to
         * @return the changed copy
         */
        public Options withCompletionChannel(boolean on) {
            Options c = copy();
            c.completionChannel = on;
            return c;
        }

        /**
         * Seeds the initial PSNs.
         *
         * @param s the seed of the PSNs' Random
         * @return the changed copy
         */
        public Options withSeed(long s) {
            Options c = copy();
            c.seed = s;
            return c;
        }

        /**
         * RC (default), UC or UD.
         *
         * @param type the QP type
         * @return the changed copy
         */
        public Options withQpType(QpType type) {
            Options c = copy();
            c.qpType = Objects.requireNonNull(type);
            return c;
        }

        /**
         * Both QPs' qp_access_flags (RC and UC): what their peer may do to them.
         *
         * @param access {@code AccessFlags} bits
         * @return the changed copy
         */
        public Options withQpAccess(int access) {
            Options c = copy();
            c.qpAccess = access;
            return c;
        }

        /**
         * The access flags the four buffers are registered with.
         *
         * @param access {@code AccessFlags} bits
         * @return the changed copy
         */
        public Options withMrAccess(int access) {
            Options c = copy();
            c.mrAccess = access;
            return c;
        }

        /**
         * Local ACK timeout (4.096 µs × 2^t) and retry_cnt of both RC QPs.
         *
         * @param timeout the ACK timeout exponent, 0..31
         * @param retryCnt the retry count, 0..7
         * @return the changed copy
         */
        public Options withRetry(int timeout, int retryCnt) {
            Options c = copy();
            c.timeout = timeout;
            c.retryCnt = retryCnt;
            return c;
        }

        /**
         * rnr_retry (requester) and min_rnr_timer (responder) of both RC QPs.
         *
         * @param rnrRetry the RNR retry count, 0..7 (7: infinite)
         * @param minRnrTimer the RNR timer code, 0..31
         * @return the changed copy
         */
        public Options withRnr(int rnrRetry, int minRnrTimer) {
            Options c = copy();
            c.rnrRetry = rnrRetry;
            c.minRnrTimer = minRnrTimer;
            return c;
        }

        /**
         * max_rd_atomic (initiator depth) and max_dest_rd_atomic (responder resources).
         *
         * @param maxRdAtomic outstanding reads and atomics each QP initiates
         * @param maxDestRdAtomic outstanding reads and atomics each QP answers
         * @return the changed copy
         */
        public Options withRdAtomic(int maxRdAtomic, int maxDestRdAtomic) {
            Options c = copy();
            c.maxRdAtomic = maxRdAtomic;
            c.maxDestRdAtomic = maxDestRdAtomic;
            return c;
        }

        /**
         * How far B is brought: RESET, INIT, RTR or RTS (default). A always reaches RTS,
         * addressed to B's QPN and PSN, so its requests find B not (yet) ready.
         *
         * @param s RESET, INIT, RTR or RTS
         * @return the changed copy
         */
        public Options withPeerState(QpState s) {
            Options c = copy();
            c.peerState = s;
            return c;
        }

        /**
         * Gives each side an SRQ created with {@code attr} that its QP receives from.
         *
         * @param attr the SRQ's attributes
         * @return the changed copy
         */
        public Options withSrq(SrqInitAttr attr) {
            Options c = copy();
            c.srq = attr;
            return c;
        }

        /**
         * B of the new pair shares {@code peer}'s context, PD, CQs, buffers and SRQ; only its QP
         * is new. The pair must be closed before the one {@code peer} belongs to.
         *
         * @param peer an endpoint of an open pair
         * @return the changed copy
         */
        public Options withSharedPeer(Endpoint peer) {
            Options c = copy();
            c.sharedPeer = peer;
            return c;
        }

        /**
         * The path MTU.
         *
         * @return the MTU
         */
        public Mtu mtu() {
            return mtu;
        }

        /**
         * The size of each buffer.
         *
         * @return bytes per buffer
         */
        public int bufferBytes() {
            return bufferBytes;
        }

        /**
         * The QPs' capabilities.
         *
         * @return the capabilities
         */
        public QpCap cap() {
            return cap;
        }

        /**
         * The size of each CQ.
         *
         * @return the CQ entries asked for
         */
        public int cqEntries() {
            return cqEntries;
        }

        /**
         * Whether every send WR completes.
         *
         * @return the sq_sig_all setting
         */
        public boolean sqSigAll() {
            return sqSigAll;
        }

        /**
         * Whether each side has a completion channel.
         *
         * @return true if it has
         */
        public boolean completionChannel() {
            return completionChannel;
        }

        /**
         * The seed of the initial PSNs.
         *
         * @return the seed
         */
        public long seed() {
            return seed;
        }

        /**
         * The QP type.
         *
         * @return RC, UC or UD
         */
        public QpType qpType() {
            return qpType;
        }

        /**
         * The QPs' access flags.
         *
         * @return {@code AccessFlags} bits
         */
        public int qpAccess() {
            return qpAccess;
        }

        /**
         * The buffers' access flags.
         *
         * @return {@code AccessFlags} bits
         */
        public int mrAccess() {
            return mrAccess;
        }

        /**
         * The local ACK timeout exponent.
         *
         * @return 0..31
         */
        public int timeout() {
            return timeout;
        }

        /**
         * The retry count.
         *
         * @return 0..7
         */
        public int retryCnt() {
            return retryCnt;
        }

        /**
         * The RNR retry count.
         *
         * @return 0..7
         */
        public int rnrRetry() {
            return rnrRetry;
        }

        /**
         * The RNR timer code.
         *
         * @return 0..31
         */
        public int minRnrTimer() {
            return minRnrTimer;
        }

        /**
         * The initiator depth.
         *
         * @return max_rd_atomic
         */
        public int maxRdAtomic() {
            return maxRdAtomic;
        }

        /**
         * The responder resources.
         *
         * @return max_dest_rd_atomic
         */
        public int maxDestRdAtomic() {
            return maxDestRdAtomic;
        }

        /**
         * How far B is brought.
         *
         * @return RESET, INIT, RTR or RTS
         */
        public QpState peerState() {
            return peerState;
        }
    }

    /** One side of the pair. */
    public static final class Endpoint {
        /** The context this side lives in. */
        public final Context context;
        /** This side's PD, which its QP, buffers and address handle are in. */
        public final ProtectionDomain pd;
        /** Null unless {@link Options#completionChannel()}. */
        public final CompletionChannel channel;
        /** The CQ this side's send queue completes to. */
        public final CompletionQueue sendCq;
        /** The CQ this side's receive queue (or SRQ) completes to. */
        public final CompletionQueue recvCq;
        /** Null unless {@link Options#withSrq}. */
        public final SharedReceiveQueue srq;
        /** This side's QP, in RTS (B: in {@link Options#peerState()}). */
        public final QueuePair qp;
        /** Where this side's sends gather from. */
        public final MemoryRegion sendMr;
        /** Where this side's receives scatter to. */
        public final MemoryRegion recvMr;
        /** The PSN this side starts sending with (its peer's expected PSN). */
        public final int sqPsn;
        /** This side's GID at the pair's GID index. */
        public final Gid gid;
        private AddressHandle ah;

        private Endpoint(Context context, int port, int gidIndex, Options o, int sqPsn, Arena arena, Closer closer) {
            this.context = context;
            this.sqPsn = sqPsn;
            this.gid = context.queryGid(port, gidIndex);
            this.pd = closer.add(context.allocPd());
            this.channel = o.completionChannel() ? closer.add(context.createCompChannel()) : null;
            this.sendCq = closer.add(context.createCq(o.cqEntries(), channel));
            this.recvCq = closer.add(context.createCq(o.cqEntries(), channel));
            this.srq = o.srq == null ? null : closer.add(pd.createSrq(o.srq));
            this.sendMr = closer.add(pd.registerMemory(arena.allocate(o.bufferBytes(), 4096), o.mrAccess(), arena));
            this.recvMr = closer.add(pd.registerMemory(arena.allocate(o.bufferBytes(), 4096), o.mrAccess(), arena));
            this.qp = closer.add(pd.createQp(initAttr(o, sendCq, recvCq, srq)));
        }

        /** A new QP on {@code shared}'s resources. */
        private Endpoint(Endpoint shared, Options o, int sqPsn, Closer closer) {
            this.context = shared.context;
            this.sqPsn = sqPsn;
            this.gid = shared.gid;
            this.pd = shared.pd;
            this.channel = shared.channel;
            this.sendCq = shared.sendCq;
            this.recvCq = shared.recvCq;
            this.srq = shared.srq;
            this.sendMr = shared.sendMr;
            this.recvMr = shared.recvMr;
            this.qp = closer.add(pd.createQp(initAttr(o, sendCq, recvCq, srq)));
        }

        private static QpInitAttr initAttr(Options o, CompletionQueue sendCq, CompletionQueue recvCq,
                SharedReceiveQueue srq) {
            return new QpInitAttr().qpType(o.qpType()).sendCq(sendCq).recvCq(recvCq).cap(o.cap())
                    .sqSigAll(o.sqSigAll()).srq(srq);
        }

        /**
         * UD: the address handle to the peer (in this side's PD); null for RC and UC.
         *
         * @return the address handle, or null
         */
        public AddressHandle ah() {
            return ah;
        }
    }

    private final Closer closer;
    private final Endpoint a;
    private final Endpoint b;

    private Loopback(Closer closer, Endpoint a, Endpoint b) {
        this.closer = closer;
        this.a = a;
        this.b = b;
    }

    /**
     * Both QPs in one context.
     *
     * @param context the context
     * @param port the port number
     * @param gidIndex the GID index of both sides' address vectors
     * @param o how to build the pair
     * @return the connected pair
     * @throws org.jrdma.verbs.VerbsException if a resource cannot be made; what was made is closed
     */
    public static Loopback open(Context context, int port, int gidIndex, Options o) {
        return open(context, context, port, gidIndex, o);
    }

    /**
     * QP a in {@code contextA}, QP b in {@code contextB}, connected to each other.
     *
     * @param contextA A's context
     * @param contextB B's context (may be {@code contextA})
     * @param port the port number
     * @param gidIndex the GID index of both sides' address vectors
     * @param o how to build the pair
     * @return the connected pair
     * @throws org.jrdma.verbs.VerbsException if a resource cannot be made; what was made is closed
     */
    public static Loopback open(Context contextA, Context contextB, int port, int gidIndex, Options o) {
        Closer closer = new Closer();
        try {
            // Shared, not confined: the provider's engine threads read and write these buffers.
            Arena arena = Arena.ofShared();
            closer.add(arena::close);
            Random psns = new Random(o.seed());
            Endpoint a = new Endpoint(contextA, port, gidIndex, o, psns.nextInt(1 << 24), arena, closer);
            Endpoint b = o.sharedPeer == null
                    ? new Endpoint(contextB, port, gidIndex, o, psns.nextInt(1 << 24), arena, closer)
                    : new Endpoint(o.sharedPeer, o, psns.nextInt(1 << 24), closer);
            if (o.qpType() == QpType.UD) {
                a.ah = closer.add(a.pd.createAh(AhAttr.roce(b.gid, gidIndex, port)));
                b.ah = closer.add(b.pd.createAh(AhAttr.roce(a.gid, gidIndex, port)));
            }
            QpState peer = o.peerState();
            QpWalk walkA = walk(o, port, a).destQpNum(b.qp.qpNum()).rqPsn(b.sqPsn)
                    .ahAttr(AhAttr.roce(b.gid, gidIndex, port));
            QpWalk walkB = walk(o, port, b).destQpNum(a.qp.qpNum()).rqPsn(a.sqPsn)
                    .ahAttr(AhAttr.roce(a.gid, gidIndex, port));
            a.qp.modify(walkA.init());
            if (peer != QpState.RESET) {
                b.qp.modify(walkB.init());
            }
            a.qp.modify(walkA.rtr());
            if (peer == QpState.RTR || peer == QpState.RTS) {
                b.qp.modify(walkB.rtr());
            }
            a.qp.modify(walkA.rts());
            if (peer == QpState.RTS) {
                b.qp.modify(walkB.rts());
            }
            return new Loopback(closer, a, b);
        } catch (RuntimeException | Error e) {
            try {
                closer.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * rc_pingpong's walk with the pair's values; each step takes what its transport needs (UD a
     * Q_Key and nothing at RTR, UC no RNR timer, responder resources or retry policy).
     */
    private static QpWalk walk(Options o, int port, Endpoint self) {
        return QpWalk.rcPingpong(o.qpType()).port(port).accessFlags(o.qpAccess()).qkey(UD_QKEY).pathMtu(o.mtu())
                .maxDestRdAtomic(o.maxDestRdAtomic()).minRnrTimer(o.minRnrTimer()).sqPsn(self.sqPsn)
                .timeout(o.timeout()).retryCnt(o.retryCnt()).rnrRetry(o.rnrRetry()).maxRdAtomic(o.maxRdAtomic());
    }

    /**
     * Side A, always in RTS.
     *
     * @return side A
     */
    public Endpoint a() {
        return a;
    }

    /**
     * Side B, in {@link Options#peerState()}.
     *
     * @return side B
     */
    public Endpoint b() {
        return b;
    }

    @Override
    public void close() {
        closer.close();
    }
}
