package org.jrdma.cm;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import org.jrdma.cm.spi.ChannelBackend;
import org.jrdma.cm.spi.IdBackend;
import org.jrdma.cm.wire.CmaHeader;
import org.jrdma.cm.wire.PortSpace;
import org.jrdma.cm.wire.ServiceId;
import org.jrdma.verbs.AddressHandle;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.VerbsException;

/**
 * {@code struct rdma_cm_id}: one endpoint of a connection (or a listener), in port space TCP
 * (RC, through REQ/REP/RTU) or UDP (UD, through SIDR_REQ/SIDR_REP). Results arrive as events
 * on its {@link EventChannel}, in rdma_cm's order:
 *
 * <pre>{@code
 * active:  resolveAddr → ADDR_RESOLVED, resolveRoute → ROUTE_RESOLVED, createQp, connect →
 *          ESTABLISHED | REJECTED | UNREACHABLE | CONNECT_RESPONSE (no QP), … DISCONNECTED, TIMEWAIT_EXIT
 * passive: bindAddr, listen → CONNECT_REQUEST (a new id; listenId set); on it createQp, accept →
 *          ESTABLISHED (on the RTU), … DISCONNECTED, TIMEWAIT_EXIT
 * }</pre>
 *
 * The CM moves an attached QP through its states: INIT at {@link #createQp}, RTR and RTS when
 * the REP arrives (active) or before the REP leaves (passive), ERR at {@link #disconnect}.
 *
 * <p>Over 400 lines because it is the whole of rdma_cm_id's API — about fifty entry points and
 * accessors, each a few lines handing over to ActiveSide, PassiveSide, SidrSide or Teardown —
 * and one struct's API reads best in one place.
 */
public final class CmId implements AutoCloseable {
    /** Backlog used for a non-positive or too large {@link #listen} backlog (ucma's max_backlog). */
    public static final int MAX_BACKLOG = 1024;
    static final int ACCEPT_RC_DATA = 196;
    static final int ACCEPT_UD_DATA = SidrSide.SIDR_REP_PRIVATE_DATA;
    static final int REJECT_DATA = ActiveSide.REJ_PRIVATE_DATA;

    private final EventChannel channel;
    private final PortSpace portSpace;
    private final Object context;
    private final AtomicInteger pendingRequests = new AtomicInteger();
    /** Untaken CONNECT_REQUESTs per peer address (SEC-31); guarded by itself. */
    private final java.util.Map<java.net.InetAddress, Integer> pendingByPeer = new java.util.HashMap<>();
    private final List<CmAgent> listenAgents = new ArrayList<>();
    private final List<AddressHandle> ahs = new ArrayList<>();
    private volatile boolean listening;
    private volatile CmAgent agent;
    private volatile CmConn conn;
    private volatile QueuePair qp;
    private boolean qpUsesSrq;
    private boolean bound;
    private InetSocketAddress local;
    private InetSocketAddress peer;
    private boolean addrResolved;
    private boolean routeResolved;
    private int backlog;
    private int unacked;
    private boolean closed;
    /** When the setup began (made, or rdma_connect) and when it was established (0: not), for the Flight Recorder. */
    private volatile long setupStartNanos = System.nanoTime();
    private volatile long establishedNanos;
    /**
     * The id of the channel's backend (librdmacm for native devices, {@link org.jrdma.cm.spi}),
     * which then does every call; null for the built-in CM, whose state is the rest of this class.
     */
    private final IdBackend backend;

    private CmId(EventChannel channel, PortSpace portSpace, Object context) {
        this(channel, portSpace, context, null);
    }

    private CmId(EventChannel channel, PortSpace portSpace, Object context, IdBackend backend) {
        this.channel = channel;
        this.portSpace = portSpace;
        this.context = context;
        this.backend = backend;
        if (backend != null) {
            backend.attached(this);
        }
    }

    /** An id its channel's backend made (a CONNECT_REQUEST's), for {@link BackendSink}. */
    static CmId ofBackend(EventChannel channel, PortSpace portSpace, Object context, IdBackend backend) {
        return new CmId(channel, portSpace, context, backend);
    }

    /**
     * {@code rdma_create_id}: an id in port space TCP (RC or UC QPs) or UDP (UD QPs) whose events
     * go to {@code channel}.
     *
     * @param channel the event channel its events go to
     * @param portSpace {@link PortSpace#TCP} or {@link PortSpace#UDP}
     * @param context the user context, returned by {@link #context()}; may be null
     * @return the new id, unbound
     * @throws CmException if the channel is closed or the port space is not supported
     */
    public static CmId create(EventChannel channel, PortSpace portSpace, Object context) {
        Objects.requireNonNull(channel, "channel");
        if (portSpace != PortSpace.TCP && portSpace != PortSpace.UDP) {
            throw new CmException(CmError.INVALID_ARGUMENT, "create_id: port space " + portSpace + " is not supported (TCP or UDP)");
        }
        ChannelBackend b = channel.backend();
        return b == null ? new CmId(channel, portSpace, context) : new CmId(channel, portSpace, context, b.createId(portSpace, context));
    }

    /** The id of a connection request, made by the agent under its lock. */
    static CmId passive(CmId listener, CmAgent agent, InetSocketAddress local, InetSocketAddress peer) {
        CmId id = new CmId(listener.channel, listener.portSpace, listener.context);
        id.agent = CmRegistry.acquire(agent.device(), listener.options());
        id.conn = new CmConn(id, agent);
        id.local = local;
        id.peer = peer;
        id.addrResolved = true;
        id.routeResolved = true;
        return id;
    }

    /**
     * The channel this id's events go to ({@code id->channel}).
     *
     * @return the event channel
     */
    public EventChannel channel() {
        return channel;
    }

    /**
     * The id's port space ({@code id->ps}).
     *
     * @return TCP or UDP
     */
    public PortSpace portSpace() {
        return portSpace;
    }

    /**
     * The user context given to {@link #create}; a connection request's id has its listener's
     * ({@code id->context}).
     *
     * @return the context, or null
     */
    public Object context() {
        return context;
    }

    CmOptions options() {
        return channel.options();
    }

    CmConn conn() {
        return conn;
    }

    // ---- addresses ----

    /**
     * {@code rdma_bind_addr}. Address 0.0.0.0 binds every soft device; a specific address must be a
     * soft device's. Port 0 picks a free ephemeral port. ADDRESS_IN_USE when another id holds
     * the (address, port) in this port space.
     *
     * @param address the local IP address and port
     * @throws CmException ADDRESS_IN_USE, ADDRESS_NOT_AVAILABLE, or INVALID_ARGUMENT when already bound
     */
    public void bindAddr(InetSocketAddress address) {
        Objects.requireNonNull(address, "address");
        if (backend != null) {
            backend.bindAddr(address);
            return;
        }
        InetAddress ip = ip(address.getAddress(), "bind_addr");
        synchronized (this) {
            checkOpen("bind_addr");
            if (bound) {
                throw new CmException(CmError.INVALID_ARGUMENT, "bind_addr: the id is already bound to port " + local.getPort()
                        + " on " + DeviceChoice.text(local.getAddress()));
            }
            Device device = null;
            if (!ip.isAnyLocalAddress()) {
                List<Device> devices = options().devices().get();
                device = CmRegistry.deviceWithAddress(devices, ip);
                if (device == null) {
                    throw DeviceChoice.noDeviceWith("bind_addr: no soft device has address", devices, ip);
                }
            }
            int port = CmRegistry.bind(this, portSpace, ip, address.getPort());
            bound = true;
            local = new InetSocketAddress(ip, port);
            if (device != null) {
                attach(device);
            }
        }
    }

    /**
     * {@code rdma_listen}. Unbound, the id is bound to 0.0.0.0 and an ephemeral port first. A backlog
     * ≤ 0 or above {@value #MAX_BACKLOG} means {@value #MAX_BACKLOG} (ucma). While {@code
     * backlog} CONNECT_REQUEST events wait to be taken from the channel (getEvent/poll), further
     * requests are dropped unanswered, as the kernel does, so their senders retry after the CM
     * timeout instead of failing.
     *
     * @param backlog how many connection requests may wait untaken
     * @throws CmException if the id is closed, connecting or already listening
     */
    public void listen(int backlog) {
        if (backend != null) {
            backend.listen(backlog);
            return;
        }
        synchronized (this) {
            checkOpen("listen");
            if (addrResolved || conn != null && conn.state != CmState.IDLE) {
                throw new CmException(CmError.INVALID_ARGUMENT, "listen: the id is in use for a connection");
            }
        }
        if (!isBound()) {
            bindAddr(new InetSocketAddress(anyAddress(), 0));
        }
        synchronized (this) {
            this.backlog = backlog <= 0 || backlog > MAX_BACKLOG ? MAX_BACKLOG : backlog;
            if (agent == null && listenAgents.isEmpty()) {
                for (Device d : options().devices().get()) {
                    listenAgents.add(CmRegistry.acquire(d, options()));
                }
            }
            listening = true;
        }
    }

    /**
     * {@code rdma_resolve_addr}: picks the local soft device, binds the id to it (an ephemeral port if
     * unbound) and reports ADDR_RESOLVED, or at once ADDR_ERROR when no device fits: status
     * −ENODEV when no device is of the destination's family, else −ENETUNREACH, and a
     * {@link CmEvent#detail()} naming the devices there are. The device: {@code src}'s when given
     * (ADDRESS_NOT_AVAILABLE if none has it), else the one the id is bound to; else for a loopback
     * {@code dst} the first loopback device whose address is not {@code dst} (so two devices on one
     * host talk through the network path), or {@code dst}'s own; else the device that has
     * {@code dst}, or the first non-loopback device.
     *
     * @param src the local address to use, or null
     * @param dst the peer's IP address and CM port
     * @param timeout how long resolution may take ({@code timeout_ms}); positive
     * @throws CmException ADDRESS_NOT_AVAILABLE for an unknown {@code src}, INVALID_ARGUMENT for a
     *     bad address or timeout
     */
    public void resolveAddr(InetSocketAddress src, InetSocketAddress dst, Duration timeout) {
        Objects.requireNonNull(dst, "dst");
        positive(timeout, "resolve_addr");
        if (backend != null) {
            backend.resolveAddr(src, dst, timeout);
            return;
        }
        InetAddress to = ip(dst.getAddress(), "resolve_addr");
        if (to.isAnyLocalAddress()) {
            throw new CmException(CmError.INVALID_ARGUMENT, "resolve_addr: destination " + DeviceChoice.text(to)
                    + " is the wildcard address");
        }
        Device device;
        synchronized (this) {
            checkOpen("resolve_addr");
            if (listening || addrResolved) {
                throw new CmException(CmError.INVALID_ARGUMENT, "resolve_addr: the id is " + (listening ? "listening" : "resolved already"));
            }
            List<Device> devices = options().devices().get();
            device = DeviceChoice.choose(devices, src == null ? null : ip(src.getAddress(), "resolve_addr"),
                    agent == null ? null : agent.device(), to);
            if (device == null) {
                DeviceChoice.Miss miss = DeviceChoice.miss(devices, to);
                emit(new CmEvent(CmEventType.ADDR_ERROR, this, null, -miss.error().errno(), null, null, null, miss.detail()));
                return;
            }
            CmRegistry.context(device); // the chosen device is opened: from now on its address is the one it has
            InetAddress from = CmRegistry.address(device);
            if (!bound) {
                int port = CmRegistry.bind(this, portSpace, from, src == null ? 0 : src.getPort());
                bound = true;
                local = new InetSocketAddress(from, port);
            } else {
                local = new InetSocketAddress(from, local.getPort());
            }
            if (agent == null) {
                attach(device);
            }
            peer = new InetSocketAddress(to, dst.getPort());
            addrResolved = true;
        }
        emit(CmEventType.ADDR_RESOLVED, 0, null, null, null, null);
    }

    /**
     * {@code rdma_resolve_route}: on RoCE a local computation (§7.2); ROUTE_RESOLVED.
     *
     * @param timeout how long resolution may take ({@code timeout_ms}); positive
     * @throws CmException INVALID_ARGUMENT before ADDR_RESOLVED
     */
    public void resolveRoute(Duration timeout) {
        positive(timeout, "resolve_route");
        if (backend != null) {
            backend.resolveRoute(timeout);
            return;
        }
        synchronized (this) {
            checkOpen("resolve_route");
            if (!addrResolved) {
                throw new CmException(CmError.INVALID_ARGUMENT, "resolve_route: resolve the address first (wait for ADDR_RESOLVED)");
            }
            routeResolved = true;
        }
        emit(CmEventType.ROUTE_RESOLVED, 0, null, null, null, null);
    }

    // ---- the QP ----

    /**
     * {@code rdma_create_qp}: a QP on {@code pd} (which must be of this id's device — allocate it on
     * {@link #verbs()}), RC or UC in port space TCP, UD in UDP. An RC/UC QP goes to INIT at
     * once; a UD QP to RTS with rdma_cm's Q_Key 0x01234567.
     *
     * @param pd a protection domain of this id's device
     * @param attr the QP's type, CQs and capabilities
     * @return the QP, also {@link #qp()}
     * @throws CmException INVALID_ARGUMENT for a QP already made, a wrong type or device; VERBS
     *     when the device refuses
     */
    public QueuePair createQp(ProtectionDomain pd, QpInitAttr attr) {
        Objects.requireNonNull(pd, "pd");
        Objects.requireNonNull(attr, "attr");
        if (backend != null) {
            return backend.createQp(pd, attr);
        }
        CmAgent a = agent;
        if (a == null) {
            throw new CmException(CmError.INVALID_ARGUMENT, "create_qp: the id has no device yet (resolve the address, or bind to a device address)");
        }
        if (!pd.context().device().name().equals(a.device().name())) {
            throw new CmException(CmError.INVALID_ARGUMENT, "create_qp: the PD is on device " + pd.context().device().name()
                    + ", the id on " + a.device().name());
        }
        QpType want = attr.qpType();
        boolean fits = portSpace == PortSpace.UDP ? want == QpType.UD : want == QpType.RC || want == QpType.UC;
        if (!fits) {
            throw new CmException(CmError.INVALID_ARGUMENT, "create_qp: a " + want + " QP does not fit port space " + portSpace
                    + " (TCP: RC or UC; UDP: UD)");
        }
        a.lock();
        try {
            checkOpen("create_qp");
            if (qp != null) {
                throw new CmException(CmError.INVALID_ARGUMENT, "create_qp: the id already has QP 0x" + Integer.toHexString(qp.qpNum()));
            }
            QueuePair created = pd.createQp(attr);
            try {
                CmQp.initialize(created, conn.seq);
            } catch (VerbsException e) {
                created.close();
                throw new CmException(CmError.VERBS, "create_qp: " + e.getMessage(), e);
            }
            qpUsesSrq = attr.srq() != null;
            qp = created;
            return created;
        } finally {
            a.unlock();
        }
    }

    /**
     * The QP made by {@link #createQp} ({@code id->qp}).
     *
     * @return the QP, or null
     */
    public QueuePair qp() {
        if (backend != null) {
            return backend.qp();
        }
        return qp;
    }

    /** rdma_destroy_qp; also destroys the address handles the id made on the QP's PD (UD). */
    public void destroyQp() {
        if (backend != null) {
            backend.destroyQp();
            return;
        }
        synchronized (ahs) {
            ahs.forEach(AddressHandle::close);
            ahs.clear();
        }
        QueuePair q = qp;
        if (q != null) {
            qp = null;
            q.close();
        }
    }

    boolean qpUsesSrq() {
        return qpUsesSrq;
    }

    AddressHandle ownAh(AddressHandle ah) {
        synchronized (ahs) {
            ahs.add(ah);
        }
        return ah;
    }

    /**
     * The device context of this id ({@code id->verbs}).
     *
     * @return the context, or null before the address is resolved or bound to a device
     */
    public Context verbs() {
        if (backend != null) {
            return backend.verbs();
        }
        CmAgent a = agent;
        return a == null ? null : a.context();
    }

    // ---- connecting ----

    /**
     * {@code rdma_connect}: a REQ (RC/UC) or SIDR_REQ (UD) with {@code param}.
     *
     * @param param the connection parameters (null: {@link ConnParam#defaults()})
     * @throws CmException INVALID_ARGUMENT before ROUTE_RESOLVED or when already connecting;
     *     PRIVATE_DATA_TOO_LONG
     */
    public void connect(ConnParam param) {
        ConnParam p = param == null ? ConnParam.defaults() : param;
        setupStartNanos = System.nanoTime();
        if (backend != null) {
            backend.connect(p);
            return;
        }
        int limit = portSpace == PortSpace.UDP ? SidrSide.SIDR_REQ_USER_DATA : ActiveSide.REQ_USER_DATA;
        checkPrivateData("connect", p, limit);
        CmAgent a = requireAgent("connect");
        checkResources("connect", p, a);
        a.lock();
        try {
            checkOpen("connect");
            synchronized (this) {
                if (!routeResolved) {
                    throw new CmException(CmError.INVALID_ARGUMENT, "connect: resolve the route first (wait for ROUTE_RESOLVED)");
                }
            }
            if (conn.state != CmState.IDLE || conn.localCommId != 0) {
                throw new CmException(CmError.INVALID_ARGUMENT, "connect: the id is already connecting or connected (CM state " + conn.state + ")");
            }
            conn.peer = peer.getAddress();
            long serviceId = ServiceId.of(portSpace, peer.getPort());
            CmaHeader cma = CmaHeader.of(local.getPort(), local.getAddress(), peer.getAddress());
            if (portSpace == PortSpace.UDP) {
                SidrSide.connect(conn, p, serviceId, cma);
            } else {
                ActiveSide.connect(conn, p, serviceId, cma, qp);
            }
        } finally {
            a.unlock();
        }
    }

    /**
     * {@code rdma_accept} on a connection request's id: for RC the QP goes to RTR and RTS, then the REP
     * leaves; ESTABLISHED follows when the RTU arrives. For UD a SIDR_REP with the QP's number.
     *
     * @param param the connection parameters (null: {@link ConnParam#defaults()})
     * @throws CmException INVALID_ARGUMENT when the id is not a pending request's; VERBS when the QP
     *     cannot be modified; PRIVATE_DATA_TOO_LONG
     */
    public void accept(ConnParam param) {
        ConnParam p = param == null ? ConnParam.defaults() : param;
        if (backend != null) {
            backend.accept(p);
            return;
        }
        checkPrivateData("accept", p, portSpace == PortSpace.UDP ? ACCEPT_UD_DATA : ACCEPT_RC_DATA);
        CmAgent a = requireAgent("accept");
        checkResources("accept", p, a);
        a.lock();
        try {
            checkOpen("accept");
            if (listening) {
                throw new CmException(CmError.INVALID_ARGUMENT, "accept: call it on the CONNECT_REQUEST event's id, not the listener");
            }
            switch (conn.state) {
                case REQ_RCVD -> PassiveSide.accept(conn, p, qp);
                case SIDR_REQ_RCVD -> SidrSide.accept(conn, p, qp, ServiceId.of(portSpace, local.getPort()));
                default -> throw new CmException(CmError.INVALID_ARGUMENT, "accept: no connection request to accept (CM state " + conn.state + ")");
            }
        } catch (VerbsException e) {
            throw new CmException(CmError.VERBS, "accept: moving the QP to RTR/RTS failed: " + e.getMessage(), e);
        } finally {
            a.unlock();
        }
    }

    /**
     * {@code rdma_reject}: a REJ with reason 28 (consumer defined) and {@code privateData}
     * (≤ 148 bytes; UD: a SIDR_REP "reject", ≤ 136).
     *
     * @param privateData the private data to send, or null
     * @throws CmException INVALID_ARGUMENT when the id is not a pending request's;
     *     PRIVATE_DATA_TOO_LONG
     */
    public void reject(byte[] privateData) {
        byte[] data = privateData == null ? new byte[0] : privateData.clone();
        if (backend != null) {
            backend.reject(data);
            return;
        }
        int limit = portSpace == PortSpace.UDP ? ACCEPT_UD_DATA : REJECT_DATA;
        if (data.length > limit) {
            throw new CmException(CmError.PRIVATE_DATA_TOO_LONG, "reject: " + data.length + " bytes of private data, at most "
                    + limit + " fit in a " + (portSpace == PortSpace.UDP ? "SIDR_REP" : "REJ"));
        }
        CmAgent a = requireAgent("reject");
        a.lock();
        try {
            checkOpen("reject");
            switch (conn.state) {
                case REQ_RCVD, REP_RCVD -> PassiveSide.reject(conn, data);
                case SIDR_REQ_RCVD -> SidrSide.reject(conn, data, ServiceId.of(portSpace, local.getPort()));
                default -> throw new CmException(CmError.INVALID_ARGUMENT, "reject: nothing to reject (CM state " + conn.state + ")");
            }
        } finally {
            a.unlock();
        }
    }

    /**
     * {@code rdma_establish}: after CONNECT_RESPONSE (an id with no QP), sends the RTU.
     *
     * @throws CmException INVALID_ARGUMENT when there is no CONNECT_RESPONSE to answer
     */
    public void establish() {
        if (backend != null) {
            backend.establish();
            return;
        }
        CmAgent a = requireAgent("establish");
        a.lock();
        try {
            checkOpen("establish");
            if (conn.state != CmState.REP_RCVD) {
                throw new CmException(CmError.INVALID_ARGUMENT, "establish: no CONNECT_RESPONSE to answer (CM state " + conn.state + ")");
            }
            ActiveSide.establish(conn);
        } finally {
            a.unlock();
        }
    }

    /**
     * rdma_disconnect: the QP to ERR (its work requests flush) and a DREQ; or, after the peer's
     * DREQ (DISCONNECTED), the DREP. Both sides then get TIMEWAIT_EXIT after the timewait.
     */
    public void disconnect() {
        if (backend != null) {
            backend.disconnect();
            return;
        }
        CmAgent a = requireAgent("disconnect");
        a.lock();
        try {
            checkOpen("disconnect");
            Disconnect.disconnect(conn, qp);
        } catch (VerbsException e) {
            throw new CmException(CmError.VERBS, "disconnect: " + e.getMessage(), e);
        } finally {
            a.unlock();
        }
    }

    // ---- what it is bound to ----

    /**
     * The address the id is bound to ({@code rdma_get_local_addr}).
     *
     * @return the local address and port, or null when unbound
     */
    public InetSocketAddress localAddress() {
        if (backend != null) {
            return backend.localAddress();
        }
        synchronized (this) {
            return local;
        }
    }

    /**
     * The peer's address ({@code rdma_get_peer_addr}).
     *
     * @return the peer's address and port, or null before one is known
     */
    public InetSocketAddress peerAddress() {
        if (backend != null) {
            return backend.peerAddress();
        }
        synchronized (this) {
            return peer;
        }
    }

    /**
     * {@code rdma_get_src_port}: the bound port.
     *
     * @return the port, 0 when unbound
     */
    public int port() {
        if (backend != null) {
            return backend.port();
        }
        synchronized (this) {
            return local == null ? 0 : local.getPort();
        }
    }

    /**
     * The CM counters of this id's device (MADs received, sent, retransmitted, duplicates, dropped
     * by reason); empty on librdmacm, whose MADs the kernel sends.
     *
     * @return counter name to value
     */
    public Map<String, Long> counters() {
        CmAgent a = agent;
        return a == null ? Map.of() : a.counters().snapshot();
    }

    /**
     * The CM counters of a device in this process.
     *
     * @param deviceName the device's name, e.g. {@code rxe0}
     * @return counter name to value; empty when its agent is not running
     */
    public static Map<String, Long> deviceCounters(String deviceName) {
        CmAgent a = CmRegistry.agent(deviceName);
        return a == null ? Map.of() : a.counters().snapshot();
    }

    // ---- events ----

    void emit(CmEventType type, int status, byte[] privateData, ConnParam param, UdParam ud, CmId listenId) {
        emit(new CmEvent(type, this, listenId, status, privateData, param, ud, null));
    }

    private void emit(CmEvent e) {
        synchronized (this) {
            if (closed) {
                return;
            }
            unacked++;
        }
        flightEvent(e);
        channel.post(e);
    }

    /** ESTABLISHED and the first DISCONNECTED after it as Flight Recorder connection events. */
    private void flightEvent(CmEvent e) {
        if (e.type() == CmEventType.ESTABLISHED) {
            establishedNanos = System.nanoTime();
            org.jrdma.verbs.jfr.ConnectionEstablishedEvent.emit("cm", peerText(), localQpn(), remoteQpn(e), setupStartNanos);
        } else if (e.type() == CmEventType.DISCONNECTED && establishedNanos != 0) {
            org.jrdma.verbs.jfr.ConnectionClosedEvent.emit("cm", peerText(), localQpn(), remoteQpn(e), establishedNanos);
            establishedNanos = 0;
        }
    }

    private String peerText() {
        InetSocketAddress p = peerAddress();
        return p == null ? null : p.getAddress().getHostAddress() + ":" + p.getPort();
    }

    private int localQpn() {
        QueuePair q = qp();
        return q == null ? 0 : q.qpNum();
    }

    private int remoteQpn(CmEvent e) {
        if (e.ud() != null) {
            return e.ud().qpNum();
        }
        CmConn c = conn;
        return c == null ? 0 : c.remoteQpn;
    }

    synchronized void eventAcked() {
        unacked--;
        notifyAll();
    }

    boolean isListening() {
        return listening;
    }

    /** Takes a backlog slot for a new connection request; false when the backlog is full. */
    boolean reserveBacklog() {
        while (true) {
            int n = pendingRequests.get();
            if (!listening || n >= backlog) {
                return false;
            }
            if (pendingRequests.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    void requestRetrieved() {
        pendingRequests.updateAndGet(n -> Math.max(0, n - 1));
    }

    /**
     * The most connection requests from one peer address that may wait untaken in this
     * listener's backlog: half of it (at least 1). RELIABILITY-SECURITY SEC-31 (ReDMArk M7,
     * per-client limits): one host flooding REQs fills at most half the backlog, so another
     * host's request still finds a slot. A REQ over the limit is dropped unanswered like one
     * over the backlog, so a legitimate peer's retry gets in once the application takes events.
     */
    int perPeerPending() {
        return Math.max(1, backlog / 2);
    }

    /** Takes one of {@code peer}'s per-peer slots (after {@link #reserveBacklog}); false when it has {@link #perPeerPending} waiting. */
    boolean reservePeerSlot(java.net.InetAddress peer) {
        synchronized (pendingByPeer) {
            int n = pendingByPeer.getOrDefault(peer, 0);
            if (n >= perPeerPending()) {
                return false;
            }
            pendingByPeer.put(peer, n + 1);
            return true;
        }
    }

    /** The application took a CONNECT_REQUEST from {@code peer}: its per-peer slot is free again. */
    void peerRequestRetrieved(java.net.InetAddress peer) {
        synchronized (pendingByPeer) {
            pendingByPeer.computeIfPresent(peer, (k, n) -> n <= 1 ? null : n - 1);
        }
    }

    // ---- destroying ----

    /** rdma_destroy_id, waiting up to the options' destroyTimeout for the id's events to be acked. */
    @Override
    public void close() {
        close(options().destroyTimeout());
    }

    /**
     * {@code rdma_destroy_id}: ends the connection as the IB CM does when an id goes away (a REJ for a
     * pending request or reply, a DREQ for an established connection, a DREP for a received
     * DREQ), destroys the QP and address handles the id made, releases its port, and waits until
     * every event the application took from the channel has been acked — TIMED_OUT if that does
     * not happen by {@code timeout} (the id is destroyed all the same; calling close again waits
     * for the acks again). Its events still in the channel are dropped, as the kernel's ucma
     * drops them: a TIMEWAIT_EXIT nobody waits for held every close for the whole timeout.
     *
     * @param timeout how long to wait for the id's events to be acked
     * @throws CmException TIMED_OUT when an event taken from the channel is still not acked
     */
    public void close(Duration timeout) {
        if (backend != null) {
            backend.close(timeout);
            return;
        }
        boolean first;
        synchronized (this) {
            first = !closed;
            closed = true; // no event is emitted from here on
            listening = false;
        }
        if (first) {
            destroy();
            int dropped = channel.discard(this);
            synchronized (this) {
                unacked -= dropped;
            }
        }
        awaitAcks(timeout);
    }

    private void destroy() {
        CmAgent a = agent;
        if (a != null && conn != null) {
            a.lock();
            try {
                Teardown.destroy(conn, qp, portSpace == PortSpace.UDP ? ServiceId.of(portSpace, port()) : 0);
            } finally {
                a.unlock();
            }
        }
        destroyQp();
        CmRegistry.unbind(this);
        if (a != null) {
            CmRegistry.release(a);
        }
        listenAgents.forEach(CmRegistry::release);
        listenAgents.clear();
    }

    private synchronized void awaitAcks(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (unacked > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new CmException(CmError.TIMED_OUT, "destroy_id: " + unacked + " event(s) of this id not acked within "
                            + timeout.toMillis() + " ms (ack every event you get)");
                }
                wait(Math.max(1, left / 1_000_000));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CmException(CmError.TIMED_OUT, "destroy_id: interrupted while waiting for acks");
        }
    }

    // ---- helpers ----

    private void attach(Device device) {
        CmAgent a = CmRegistry.acquire(device, options());
        agent = a;
        conn = new CmConn(this, a);
    }

    private synchronized boolean isBound() {
        return bound;
    }

    private CmAgent requireAgent(String op) {
        CmAgent a = agent;
        if (a == null || conn == null) {
            throw new CmException(CmError.INVALID_ARGUMENT, op + ": the id has no connection (resolve the address and route first)");
        }
        return a;
    }

    private synchronized void checkOpen(String op) {
        if (closed) {
            throw new CmException(CmError.CLOSED, op + ": the id is destroyed");
        }
    }

    private static void checkPrivateData(String op, ConnParam p, int limit) {
        if (p.privateDataLength() > limit) {
            throw new CmException(CmError.PRIVATE_DATA_TOO_LONG, op + ": " + p.privateDataLength()
                    + " bytes of private data, at most " + limit + " fit (rdma_" + op + " limits, ROCEV2-FACTS §7.3)");
        }
    }

    private static void checkResources(String op, ConnParam p, CmAgent a) {
        int maxResp = a.deviceAttr().maxQpRdAtom();
        int maxInit = a.deviceAttr().maxQpInitRdAtom();
        if (p.responderResources() != ConnParam.DEVICE_MAX && p.responderResources() > maxResp) {
            throw new CmException(CmError.INVALID_ARGUMENT, op + ": responderResources " + p.responderResources()
                    + " exceeds the device's " + maxResp + " (use ConnParam.DEVICE_MAX for the maximum)");
        }
        if (p.initiatorDepth() != ConnParam.DEVICE_MAX && p.initiatorDepth() > maxInit) {
            throw new CmException(CmError.INVALID_ARGUMENT, op + ": initiatorDepth " + p.initiatorDepth()
                    + " exceeds the device's " + maxInit + " (use ConnParam.DEVICE_MAX for the maximum)");
        }
    }

    /** IPv4 or IPv6: a soft device's GID is ::ffff:a.b.c.d for IPv4 and the address itself for IPv6. */
    private static InetAddress ip(InetAddress a, String op) {
        if (a == null) {
            throw new CmException(CmError.INVALID_ARGUMENT, op + ": an unresolved address");
        }
        return a;
    }

    private static void positive(Duration d, String op) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new CmException(CmError.INVALID_ARGUMENT, op + ": the timeout must be positive");
        }
    }

    private static InetAddress anyAddress() {
        try {
            return InetAddress.getByAddress(new byte[4]);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
