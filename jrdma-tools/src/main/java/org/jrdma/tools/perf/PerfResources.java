package org.jrdma.tools.perf;

import java.lang.foreign.MemorySegment;
import java.security.SecureRandom;
import org.jrdma.bootstrap.KeyMessage;
import org.jrdma.bootstrap.MalformedMessageException;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AddressHandle;
import org.jrdma.verbs.CompletionChannel;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QueuePair;

/**
 * One side's verbs objects, as perftest's ctx_init creates them: a context, a PD, a send CQ and a
 * receive CQ (sharing one completion channel with {@code -e}), one buffer registered once for
 * every QP (see {@link BufferLayout}), and {@code -q} QPs moved to INIT. After the key exchange,
 * {@link #connect} takes them to RTR and RTS (UD: and creates the address handles).
 */
final class PerfResources implements AutoCloseable {
    private static final SecureRandom RANDOM = new SecureRandom();

    /** How a test QP is made and brought to INIT: by verbs ({@link #VERBS}), or by a CM id (perftest -R). */
    @FunctionalInterface
    interface QpMaker {
        QueuePair make(int q, ProtectionDomain pd, QpInitAttr attr);
    }

    /** ibv_create_qp, then INIT with perftest's attributes. */
    static final QpMaker VERBS = (q, pd, attr) -> {
        QueuePair qp = pd.createQp(attr);
        QpConnector.toInit(qp);
        return qp;
    };

    final Context ctx;
    final ProtectionDomain pd;
    final CompletionChannel channel;
    final CompletionQueue sendCq;
    final CompletionQueue recvCq;
    final BufferLayout layout;
    final MemorySegment buffer;
    final MemoryRegion mr;
    final QueuePair[] qps;
    final AddressHandle[] ahs;
    final int[] psns;
    final Gid gid;
    final QpType type;
    private final PerfBuffer memory;
    /** Whether {@link #close} closes {@link #ctx} (ours), or only what we made on it (the CM's). */
    private final boolean ownsContext;
    /** Whether the test QPs are ours to destroy (made by verbs), or a CM id's (-R). */
    private final boolean ownsQps;

    /** Takes ownership of {@code ctx} and {@code memory}: {@link #close} closes them, and so does a failure here. */
    PerfResources(Context ctx, PerfConfig c, PerfBuffer memory, int sendDepth, int recvDepth, int inline) {
        this(ctx, true, VERBS, c, memory, sendDepth, recvDepth, inline);
    }

    /**
     * With {@code ownsContext} false (the connection manager's context, shared by its ids) a
     * failure here or {@link #close} releases only the objects made here; QPs made by a CM id
     * are the id's to destroy.
     */
    PerfResources(Context ctx, boolean ownsContext, QpMaker maker, PerfConfig c, PerfBuffer memory, int sendDepth, int recvDepth,
            int inline) {
        this.type = c.connection();
        this.ctx = ctx;
        this.ownsContext = ownsContext;
        this.ownsQps = maker == VERBS;
        this.memory = memory;
        try {
            this.gid = ctx.queryGid(QpConnector.PORT, c.gidIndex());
            this.pd = ctx.allocPd();
            this.channel = c.events() ? ctx.createCompChannel() : null;
            this.sendCq = ctx.createCq(sendCqEntries(c, sendDepth), channel);
            this.recvCq = ctx.createCq(recvCqEntries(c, recvDepth), channel);
            this.layout = memory.layout;
            this.buffer = memory.segment;
            this.mr = memory.register(pd, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE
                    | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC);
            this.qps = new QueuePair[c.qps()];
            this.ahs = new AddressHandle[c.qps()];
            this.psns = new int[c.qps()];
            QpCap cap = new QpCap(sendDepth, Math.max(1, recvDepth), 1, 1, inline);
            for (int q = 0; q < qps.length; q++) {
                qps[q] = maker.make(q, pd, new QpInitAttr().sendCq(sendCq).recvCq(recvCq).qpType(type).cap(cap));
                psns[q] = RANDOM.nextInt(1 << 24); // perftest: lrand48() & 0xffffff
            }
        } catch (RuntimeException e) {
            closeQuietly();
            throw e;
        }
    }

    /** The send CQ: room for every QP's whole send queue, and some. */
    static int sendCqEntries(PerfConfig c, int sendDepth) {
        return c.qps() * sendDepth + 16;
    }

    /** The receive CQ: room for every QP's whole receive queue, and some. */
    static int recvCqEntries(PerfConfig c, int recvDepth) {
        return c.qps() * Math.max(1, recvDepth) + 16;
    }

    /** QP {@code q}'s key message: our -o, QPN, PSN, the buffer's rkey, its target region, our GID. */
    KeyMessage localKey(int q, int outReads) {
        return new KeyMessage(0, outReads, qps[q].qpNum(), psns[q], mr.rkey(), mr.addr() + layout.targetOffset(q), gid, 0);
    }

    /** ctx_connect: every QP to RTR and RTS with its peer's key message, perftest's defaults for -S and -u. */
    void connect(KeyMessage[] peers, Mtu mtu, int gidIndex, int ourOutReads, boolean readsOrAtomics) {
        connect(peers, mtu, gidIndex, ourOutReads, readsOrAtomics, 0, PerfConfig.Extras.DEFAULT_QP_TIMEOUT);
    }

    /** The same with the service level ({@code -S}) of the address vectors and the RC timeout ({@code -u}). */
    void connect(KeyMessage[] peers, Mtu mtu, int gidIndex, int ourOutReads, boolean readsOrAtomics, int sl, int qpTimeout) {
        for (int q = 0; q < qps.length; q++) {
            KeyMessage peer = peers[q];
            int peerOutReads = peer.outReads();
            if (type == QpType.RC && readsOrAtomics && peerOutReads == 0) {
                throw new MalformedMessageException("out_reads", "the peer allows no READ or atomic in flight (0); "
                        + "it must be given -o 1 or more");
            }
            int maxRd = ctx.queryDevice().maxQpRdAtom();
            QpConnector.toRtr(qps[q], mtu, peer, gidIndex, ourOutReads, sl);
            // compare_max_qp_rd_atom: never more in flight than the device allows.
            QpConnector.toRts(qps[q], psns[q], Math.min(peerOutReads, maxRd), qpTimeout);
            if (type == QpType.UD) {
                ahs[q] = pd.createAh(QpConnector.addressVector(peer, gidIndex, sl));
            }
        }
    }

    long localAddr(int q) {
        return mr.addr() + layout.localOffset(q);
    }

    long targetAddr(int q) {
        return mr.addr() + layout.targetOffset(q);
    }

    long receiveAddr(int q) {
        return mr.addr() + layout.receiveOffset(q);
    }

    /** The QP index of a completion's QP number, or -1. */
    int qpIndex(int qpNum) {
        for (int q = 0; q < qps.length; q++) {
            if (qps[q].qpNum() == qpNum) {
                return q;
            }
        }
        return -1;
    }

    private void closeQuietly() {
        try {
            close();
        } catch (RuntimeException ignored) {
            // already failing
        }
    }

    @Override
    public void close() {
        try {
            if (ownsContext) {
                ctx.close();
            } else {
                releaseOnSharedContext();
            }
        } finally {
            memory.close();
        }
    }

    /**
     * The CM's context stays open for its other ids: close ours on it, children first, each at
     * most once — with -z the test QPs and address handles too (made by verbs, ours).
     */
    private void releaseOnSharedContext() {
        RuntimeException first = null;
        java.util.List<AutoCloseable> ours = new java.util.ArrayList<>();
        if (ownsQps) {
            ours.addAll(java.util.Arrays.asList(ahs));
            ours.addAll(java.util.Arrays.asList(qps));
        }
        ours.addAll(java.util.Arrays.asList(mr, sendCq, recvCq, channel, pd));
        for (AutoCloseable o : ours) {
            if (o == null) {
                continue;
            }
            try {
                o.close();
            } catch (Exception e) {
                first = first == null ? new IllegalStateException("releasing perf resources", e) : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
