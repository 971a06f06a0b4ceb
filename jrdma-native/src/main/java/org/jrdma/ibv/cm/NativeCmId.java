package org.jrdma.ibv.cm;

import java.lang.foreign.MemorySegment;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.jrdma.cm.CmError;
import org.jrdma.cm.CmException;
import org.jrdma.cm.CmId;
import org.jrdma.cm.ConnParam;
import org.jrdma.cm.spi.IdBackend;
import org.jrdma.cm.wire.PortSpace;
import org.jrdma.ibv.LibraryContexts;
import org.jrdma.ibv.NativeContext;
import org.jrdma.ibv.NativeCq;
import org.jrdma.ibv.NativePd;
import org.jrdma.ibv.NativeQp;
import org.jrdma.ibv.ffi.CmCalls;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.VerbsException;

/**
 * {@code struct rdma_cm_id} on librdmacm. Every call runs under its channel's lock and fails with
 * CLOSED once the id is destroyed, so no call ever reaches freed librdmacm memory.
 *
 * <p>The QP: rdma_create_qp makes it on the PD (which must be of {@link #verbs()}, librdmacm's own
 * context of the device) and moves it to INIT; {@link NativePd#adoptQp} wraps it, and from then on
 * librdmacm moves it to RTR/RTS (connect, accept) and ERR (disconnect, a REJ) itself. Whoever
 * destroys the wrapper — {@link #destroyQp}, {@code qp.close()}, the context's close — id->qp is
 * cleared before librdmacm could touch it again ({@link #syncQp}).
 */
final class NativeCmId implements IdBackend {
    /** The private data the kernel's CM messages carry after rdma_cm's header (REQ 56, SIDR_REQ 180). */
    private static final int CONNECT_TCP = 56;
    private static final int CONNECT_UDP = 180;
    private static final int ACCEPT_TCP = 196;
    private static final int ACCEPT_UDP = 136;
    private static final int REJECT_TCP = 148;

    private final NativeCmChannel channel;
    private final MemorySegment id;
    final PortSpace portSpace;
    private CmId api;
    private NativeQp qp;
    /** Events taken from the channel that count for this id and are not acked yet, by address. */
    private final Map<Long, MemorySegment> unacked = new HashMap<>();
    private boolean destroyed;
    /** Known once the id has a device; kept after destroy, as the built-in CM keeps its context. */
    private volatile NativeContext verbs;
    private InetSocketAddress lastLocal;
    private InetSocketAddress lastPeer;

    NativeCmId(NativeCmChannel channel, MemorySegment id, PortSpace portSpace) {
        this.channel = channel;
        this.id = id;
        this.portSpace = portSpace;
    }

    long address() {
        return id.address();
    }

    @Override
    public void attached(CmId api) {
        this.api = api;
    }

    CmId api() {
        return api;
    }

    // ---- events (under the channel's lock) ----

    void taken(MemorySegment event) {
        unacked.put(event.address(), event);
    }

    /** rdma_ack_cm_event, once; an event already acked by the id's destroy is left alone. */
    void ack(MemorySegment event) {
        channel.lock.lock();
        try {
            if (unacked.remove(event.address()) != null) {
                CmCalls.ackEvent(event);
            }
        } finally {
            channel.lock.unlock();
        }
    }

    /** Clears id->qp when the wrapper of the QP it names was destroyed. */
    void syncQp() {
        if (qp != null && qp.isClosed()) {
            CmCalls.forgetQp(id);
            qp = null;
        }
    }

    private <T> T call(String op, Supplier<T> body) {
        channel.lock.lock();
        try {
            if (destroyed) {
                throw new CmException(CmError.CLOSED, op + ": the id is destroyed");
            }
            channel.checkOpen(op);
            syncQp();
            return body.get();
        } finally {
            channel.lock.unlock();
        }
    }

    private void run(String op, Runnable body) {
        call(op, () -> {
            body.run();
            return null;
        });
    }

    // ---- addresses ----

    @Override
    public void bindAddr(InetSocketAddress address) {
        run("rdma_bind_addr", () -> CmCalls.bindAddr(id, address));
    }

    /** A backlog ≤ 0 or above CmId.MAX_BACKLOG is CmId.MAX_BACKLOG, as on the built-in CM (ucma's max_backlog). */
    @Override
    public void listen(int backlog) {
        int b = backlog <= 0 || backlog > CmId.MAX_BACKLOG ? CmId.MAX_BACKLOG : backlog;
        run("rdma_listen", () -> CmCalls.listen(id, b));
    }

    @Override
    public void resolveAddr(InetSocketAddress src, InetSocketAddress dst, Duration timeout) {
        InetSocketAddress from = source(src, dst);
        run("rdma_resolve_addr", () -> CmCalls.resolveAddr(id, from, dst, millis(timeout)));
    }

    /**
     * The source to give rdma_resolve_addr. A program names its device by the address of its
     * first GID (the tools do: on a soft device that is the device's IP address). On RoCE, GID 0
     * is the netdev's IPv6 link-local address, which is no source for an IPv4 destination and,
     * without a scope id, none at all: then rdma_cm picks the source by the routing table, as for
     * no source — the same device on a host with one RDMA NIC per subnet.
     */
    static InetSocketAddress source(InetSocketAddress src, InetSocketAddress dst) {
        if (src == null || src.getAddress() == null || dst.getAddress() == null) {
            return src;
        }
        boolean sameFamily = (src.getAddress() instanceof Inet4Address) == (dst.getAddress() instanceof Inet4Address);
        boolean unscopedLinkLocal = src.getAddress() instanceof Inet6Address a && a.isLinkLocalAddress() && a.getScopeId() == 0;
        return sameFamily && !unscopedLinkLocal ? src : null;
    }

    @Override
    public void resolveRoute(Duration timeout) {
        run("rdma_resolve_route", () -> CmCalls.resolveRoute(id, millis(timeout)));
    }

    // ---- the QP ----

    @Override
    public QueuePair createQp(ProtectionDomain pd, QpInitAttr attr) {
        QpType want = attr.qpType();
        boolean fits = portSpace == PortSpace.UDP ? want == QpType.UD : want == QpType.RC || want == QpType.UC;
        if (!fits) {
            throw new CmException(CmError.INVALID_ARGUMENT, "rdma_create_qp: a " + want + " QP does not fit port space "
                    + portSpace + " (TCP: RC or UC; UDP: UD)");
        }
        if (attr.srq() != null) {
            throw new CmException(CmError.INVALID_ARGUMENT, "rdma_create_qp: a QP on an SRQ is not supported on librdmacm"
                    + " by jrdma yet (create it without one)");
        }
        return call("rdma_create_qp", () -> {
            if (qp != null) {
                throw new CmException(CmError.INVALID_ARGUMENT, "rdma_create_qp: the id already has QP 0x" + Integer.toHexString(qp.qpNum()));
            }
            NativeContext ctx = verbsLocked();
            if (ctx == null) {
                throw new CmException(CmError.INVALID_ARGUMENT, "rdma_create_qp: the id has no device yet (resolve the address,"
                        + " or bind to a device address)");
            }
            if (!(pd instanceof NativePd npd) || npd.context() != ctx) {
                throw new CmException(CmError.INVALID_ARGUMENT, "rdma_create_qp: the PD is not of the id's context"
                        + " (allocate it on id.verbs(), librdmacm's context of " + ctx.device().name() + ")");
            }
            MemorySegment sendCq = cq(attr.sendCq(), ctx, "send");
            MemorySegment recvCq = cq(attr.recvCq(), ctx, "recv");
            MemorySegment made = CmCalls.createQp(id, npd.handle(), sendCq, recvCq, MemorySegment.NULL, want, attr.cap(),
                    attr.sqSigAll());
            try {
                qp = npd.adoptQp(made, attr);
            } catch (RuntimeException e) {
                CmCalls.destroyQp(id);
                throw e;
            }
            return qp;
        });
    }

    private static MemorySegment cq(org.jrdma.verbs.CompletionQueue cq, NativeContext ctx, String which) {
        if (!(cq instanceof NativeCq c) || c.context() != ctx) {
            throw new CmException(CmError.INVALID_ARGUMENT, "rdma_create_qp: the " + which + " CQ is "
                    + (cq == null ? "missing" : "not of the id's context (create it on id.verbs())"));
        }
        return c.handle();
    }

    @Override
    public QueuePair qp() {
        NativeQp q = qp;
        return q == null || q.isClosed() ? null : q;
    }

    /** rdma_destroy_qp: the wrapper destroys the QP (ibv_destroy_qp), then id->qp is cleared as rdma_destroy_qp does. */
    @Override
    public void destroyQp() {
        run("rdma_destroy_qp", () -> {
            if (qp != null) {
                qp.close();
                CmCalls.forgetQp(id);
                qp = null;
            }
        });
    }

    @Override
    public Context verbs() {
        NativeContext c = verbs;
        if (c != null && !c.isClosed()) {
            return c;
        }
        channel.lock.lock();
        try {
            return destroyed ? c : verbsLocked();
        } finally {
            channel.lock.unlock();
        }
    }

    private NativeContext verbsLocked() {
        MemorySegment v = CmCalls.verbs(id);
        if (v.equals(MemorySegment.NULL)) {
            return null;
        }
        try {
            verbs = LibraryContexts.of(v);
        } catch (VerbsException e) {
            throw new CmException(CmError.NO_DEVICE, "rdma_cm_id verbs: " + e.getMessage(), e);
        }
        return verbs;
    }

    // ---- connecting ----

    @Override
    public void connect(ConnParam param) {
        checkPrivateData("rdma_connect", param, portSpace == PortSpace.UDP ? CONNECT_UDP : CONNECT_TCP);
        run("rdma_connect", () -> CmCalls.connect(id, param));
    }

    @Override
    public void accept(ConnParam param) {
        checkPrivateData("rdma_accept", param, portSpace == PortSpace.UDP ? ACCEPT_UDP : ACCEPT_TCP);
        run("rdma_accept", () -> CmCalls.accept(id, param));
    }

    @Override
    public void reject(byte[] privateData) {
        int limit = portSpace == PortSpace.UDP ? ACCEPT_UDP : REJECT_TCP;
        if (privateData.length > limit) {
            throw new CmException(CmError.PRIVATE_DATA_TOO_LONG, "rdma_reject: " + privateData.length
                    + " bytes of private data, at most " + limit + " fit");
        }
        run("rdma_reject", () -> CmCalls.reject(id, privateData));
    }

    @Override
    public void establish() {
        run("rdma_establish", () -> CmCalls.establish(id));
    }

    @Override
    public void disconnect() {
        run("rdma_disconnect", () -> CmCalls.disconnect(id));
    }

    private static void checkPrivateData(String op, ConnParam p, int limit) {
        int n = p.privateData().length;
        if (n > limit) {
            throw new CmException(CmError.PRIVATE_DATA_TOO_LONG, op + ": " + n + " bytes of private data, at most " + limit
                    + " fit (ROCEV2-FACTS §7.3)");
        }
    }

    // ---- what it is bound to ----

    @Override
    public InetSocketAddress localAddress() {
        channel.lock.lock();
        try {
            return destroyed ? lastLocal : CmCalls.localAddress(id);
        } finally {
            channel.lock.unlock();
        }
    }

    @Override
    public InetSocketAddress peerAddress() {
        channel.lock.lock();
        try {
            return destroyed ? lastPeer : CmCalls.peerAddress(id);
        } finally {
            channel.lock.unlock();
        }
    }

    @Override
    public int port() {
        InetSocketAddress a = localAddress();
        return a == null ? 0 : a.getPort();
    }

    // ---- destroying ----

    /** rdma_destroy_id; the timeout is not needed: the id's unacked events are acked here, so it never waits. */
    @Override
    public void close(Duration timeout) {
        channel.lock.lock();
        try {
            int errno = destroyLocked();
            if (errno != 0) {
                throw CmCalls.failure("rdma_destroy_id", errno);
            }
        } finally {
            channel.lock.unlock();
        }
    }

    /**
     * Under the channel's lock: acks this id's events (librdmacm's rdma_destroy_id waits until
     * every event it reported is acked), destroys its QP (rdma_cm wants it gone first, and the
     * built-in CM's close destroys it too), then the id — the kernel ends its connection (REJ,
     * DREQ or DREP) and drops its events not yet taken. Returns rdma_destroy_id's errno.
     */
    int destroyLocked() {
        if (destroyed) {
            return 0;
        }
        lastLocal = CmCalls.localAddress(id);
        lastPeer = CmCalls.peerAddress(id);
        unacked.values().forEach(CmCalls::ackEvent);
        unacked.clear();
        if (qp != null) {
            try {
                qp.close();
            } catch (RuntimeException e) {
                // ibv_destroy_qp refused (EBUSY): the id goes all the same; the wrapper stays the caller's
            }
            CmCalls.forgetQp(id);
            qp = null;
        }
        destroyed = true;
        channel.forget(this);
        return CmCalls.destroyId(id);
    }

    private static int millis(Duration d) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new CmException(CmError.INVALID_ARGUMENT, "the timeout must be positive");
        }
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, d.toMillis()));
    }
}
