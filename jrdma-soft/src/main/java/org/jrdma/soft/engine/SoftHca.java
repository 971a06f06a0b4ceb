package org.jrdma.soft.engine;

import java.net.InetSocketAddress;
import java.util.Map;
import java.util.function.IntFunction;
import org.jrdma.soft.memory.MemoryTable;
import org.jrdma.soft.net.Datagrams;
import org.jrdma.soft.net.Ipv6Endpoint;
import org.jrdma.soft.net.PcapWriter;
import org.jrdma.soft.net.RoceEndpoint;
import org.jrdma.soft.transport.Counters;
import org.jrdma.soft.transport.QpCounter;
import org.jrdma.soft.wire.DropReason;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpType;

/**
 * One soft device: the owner that wires its parts — the {@link SoftPort} (endpoint, datagrams,
 * capture, port state), the {@link QpTable}, the memory table, the device counters, and the
 * {@link Engine} that moves packets, run by an {@link EngineRunner} — and the surface the verbs
 * objects use. The engine is an agent in Aeron's sense: {@link #doWork()} does a bounded amount
 * of work and returns how much; it runs on a dedicated thread, or — with
 * {@link ThreadingMode#INVOKER} — whenever the caller (a test) calls it, so tests can step the
 * transport deterministically.
 */
public final class SoftHca {
    private static final System.Logger LOG = System.getLogger(SoftHca.class.getName());
    /** The device's MXBean while it is open (JMX: org.jrdma:type=Device,name=…). */
    private volatile org.jrdma.verbs.jmx.Jmx.Registration jmx = org.jrdma.verbs.jmx.Jmx.Registration.none();
    private final String name;
    private final long guid;
    private final SoftPort port;
    private final Gid gid;
    private final Mtu activeMtu;
    private final MemoryTable memory = new MemoryTable();
    private final QpTable<EngineQp> qps = new QpTable<>(new EngineQp[0]);
    /** The device counters' file, shared with other processes; null when they stay private. */
    private final CounterFile counterFile;
    private final Counters<QpCounter> counters;
    private final Drops drops;
    private final Engine engine;
    private final EngineRunner runner;
    private final java.util.Set<DeviceListener> contexts = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * A device on {@code datagrams} (bound already), recording to {@code pcap} (or not, when
     * null); {@link #start} starts its engine.
     */
    public SoftHca(DeviceSetup setup, Datagrams datagrams, PcapWriter pcap) {
        this.name = setup.name();
        this.guid = setup.guid();
        this.port = new SoftPort(name, datagrams, pcap, setup.clock());
        this.gid = Gid.of(datagrams.localAddress().getAddress());
        this.activeMtu = Mtu.forEthernetMtu(setup.ethernetMtu());
        this.counterFile = setup.statsDir() == null ? null
                : CounterFile.create(setup.statsDir(), name, counterNames()).orElse(null);
        Counters<DropReason> dropCounters;
        if (counterFile != null) {
            java.lang.foreign.MemorySegment v = counterFile.values();
            long split = Counters.byteSize(QpCounter.class);
            this.counters = new Counters<>(QpCounter.class, v.asSlice(0, split));
            dropCounters = new Counters<>(DropReason.class, v.asSlice(split));
        } else {
            this.counters = new Counters<>(QpCounter.class);
            dropCounters = new Counters<>(DropReason.class);
        }
        this.drops = new Drops(dropCounters, new DropLog(name, setup.clock()));
        SourceCheck sourceCheck = setup.sourceCheck() == null ? SourceCheck.STRICT : setup.sourceCheck(); // SEC-12
        this.engine = new Engine(name, port, qps, counters, drops, sourceCheck, setup.clock());
        this.runner = new EngineRunner(name, engine, datagrams, setup.clock(), setup.threading(),
                setup.idle(), this::deviceFatal);
    }

    /** Starts the engine (its thread, unless the caller runs it). */
    public void start() {
        runner.start();
        FlightEvents.started(this);
        jmx = org.jrdma.verbs.jmx.Jmx.registerDevice(name, new DeviceBean(this));
    }

    public String name() {
        return name;
    }

    /** The names of the device counters, in slot order: transport counters, then {@code drop_<reason>}. */
    static java.util.List<String> counterNames() {
        java.util.List<String> names = new java.util.ArrayList<>();
        for (QpCounter c : QpCounter.values()) {
            names.add(Counters.label(c));
        }
        for (DropReason r : DropReason.values()) {
            names.add("drop_" + Counters.label(r));
        }
        return names;
    }

    /** Whether packets are being recorded (false when none was asked for, or the capture stopped). */
    public boolean capturing() {
        return port.capturing();
    }

    public long guid() {
        return guid;
    }

    /** GID index 0: the address the device is bound to, IPv4-mapped for an IPv4 device, itself for IPv6. */
    public Gid gid() {
        return gid;
    }

    public InetSocketAddress localAddress() {
        return port.datagrams().localAddress();
    }

    /** Port 1's endpoint: the address and UDP port the device is bound to. */
    public RoceEndpoint endpoint() {
        return port.endpoint();
    }

    public Mtu activeMtu() {
        return activeMtu;
    }

    public MemoryTable memory() {
        return memory;
    }

    public Counters<QpCounter> counters() {
        return counters;
    }

    /** Device counters: transport events and drops by reason ({@code drop_<reason>}). */
    public Map<String, Long> countersSnapshot() {
        Map<String, Long> m = counters.snapshot();
        drops.counters().snapshot().forEach((k, v) -> m.put("drop_" + k, v));
        m.remove("drop_none");
        if (port.datagrams() instanceof org.jrdma.soft.net.ImpairedDatagrams impaired) {
            impaired.counters().forEach((k, v) -> m.put("impair_" + k, v));
        }
        return m;
    }

    /** A context of the device, told of port and device events. */
    public void attach(DeviceListener c) {
        contexts.add(c);
    }

    public void detach(DeviceListener c) {
        contexts.remove(c);
    }

    /** True once the device's socket failed for good. */
    public boolean portFailed() {
        return port.isFailed();
    }

    /** Port 1's state: ACTIVE, or DOWN after {@link #setPortActive}(false) (packets then go nowhere). */
    public boolean portActive() {
        return port.isActive();
    }

    /**
     * Takes port 1 down or up, as a cable pull would: while down nothing is sent or received
     * (the transports see loss); every context of the device gets PORT_ERR, then PORT_ACTIVE.
     */
    public void setPortActive(boolean active) {
        if (!port.setActive(active)) {
            return;
        }
        for (DeviceListener c : contexts) {
            c.deviceEvent(active ? org.jrdma.verbs.AsyncEventType.PORT_ACTIVE : org.jrdma.verbs.AsyncEventType.PORT_ERR, 1);
        }
    }

    /** The device's socket failed for good: every context learns it once (DEVICE_FATAL). */
    public void deviceFatal(Exception cause) {
        if (!port.fail()) {
            return;
        }
        LOG.log(System.Logger.Level.ERROR, "jrdma-soft " + name + ": device failed", cause);
        jmx.close(); // a failed device is not watched as if it were open
        for (DeviceListener c : contexts) {
            c.deviceEvent(org.jrdma.verbs.AsyncEventType.DEVICE_FATAL, 0);
        }
    }

    /** Clock time of the first RDMA packet this device sent, or 0 before any. */
    public long firstTxNanos() {
        return port.firstTxNanos();
    }

    public long count(QpCounter c) {
        return counters.get(c);
    }

    /** The rate-limited drop log (SEC-33). */
    public DropLog dropLog() {
        return drops.log();
    }

    public long drops(DropReason reason) {
        return drops.count(reason);
    }

    /** True for a device bound to an IPv6 address (its GID is that address, not ::ffff:-mapped). */
    public boolean isIpv6() {
        return port.endpoint() instanceof Ipv6Endpoint;
    }

    public Datagrams datagrams() {
        return port.datagrams();
    }

    /** How the engine thread idles ({@code SoftOptions.idle}, by way of {@link DeviceSetup#idle}). */
    public IdleStrategy idleStrategy() {
        return runner.idleStrategy();
    }

    // ------------------------------------------------------------------ QPs

    /** A new QP of {@code type}, which {@code make} builds with the QPN the device picked. */
    @SuppressWarnings("unchecked") // the table returns what make built, a Q
    public <Q extends EngineQp> Q createQp(QpType type, IntFunction<Q> make) {
        return (Q) qps.create(type, make::apply);
    }

    public void removeQp(EngineQp qp) {
        qps.remove(qp);
    }

    public EngineQp qp(int qpn) {
        return qps.get(qpn);
    }

    public EngineQp[] qps() {
        return qps.all();
    }

    // ------------------------------------------------------------------ the engine

    /**
     * Runs one bounded pass — receive, timers, send — unless another thread is running one.
     * Returns the work done (0 = idle or busy elsewhere). Any thread may call it: the engine
     * thread, a poller whose CQ is empty, a poster with something to send (like UCX's
     * worker progress). The engine state is touched by one thread at a time.
     */
    public int doWork() {
        return runner.doWork();
    }

    /** An empty poll or a post: progress on this thread (see {@link EngineRunner#progressFromApp}). */
    public void progressFromApp() {
        runner.progressFromApp();
    }

    /** The application is polling (and found completions): the engine thread stays parked. */
    public void noteAppActive() {
        runner.noteAppActive();
    }

    /**
     * {@link #progressFromApp} after a post_send: the requesters send first. {@code behindOthers}:
     * the QP had WRs outstanding before this post (see {@link EngineRunner#progressAfterPost}).
     */
    public void progressAfterPost(boolean behindOthers) {
        runner.progressAfterPost(behindOthers);
    }

    /**
     * Sends the ACK a QP is holding for coalescing before the QP is destroyed or reset: the
     * peer's last message was executed and must be acknowledged, or the peer would retry
     * against a QP that is gone. Waits for the engine (lock order: engine, then QP).
     */
    public void flushHeldAck(EngineQp qp) {
        runner.locked(() -> engine.flushAck(qp));
    }

    /**
     * Waits for {@code done} (a completion event) by running the engine on the caller's thread
     * ({@link EngineRunner#driveUntil}); false, having done nothing, when the caller must wait
     * another way.
     */
    public boolean driveUntil(java.util.function.BooleanSupplier done, long deadlineNanos) {
        return runner.driveUntil(done, deadlineNanos);
    }

    /** A channel waiter blocks (another thread drives): see {@link EngineRunner#waiterBlocks}. */
    public void waiterBlocks() {
        runner.waiterBlocks();
    }

    public void waiterDone() {
        runner.waiterDone();
    }

    /** A completion event was queued: wakes a waiter that drives the engine. */
    public void eventPosted() {
        runner.eventPosted();
    }

    /** The application is about to block: the engine thread takes over at once. */
    public void appBlocking() {
        runner.appBlocking();
    }

    /**
     * How many QPs the engine's passes visit (the busy ones; see {@link ActiveQps}), as of the
     * end of the last pass: a doorbell rung since then is not counted. Diagnostics; takes no lock.
     */
    public int activeQps() {
        return engine.activeQps();
    }

    /**
     * How many QPs the last engine pass visited (diagnostics: a pass visits the busy QPs only),
     * as of the end of that pass; takes no lock.
     */
    public int lastPassVisits() {
        return engine.lastPassVisits();
    }

    /**
     * Rings {@code qp}'s doorbell: it has something for the engine (called after post_send,
     * bind_mw and modify_qp), so the next pass visits it, and an engine asleep wakes.
     */
    public void ring(EngineQp qp) {
        engine.ring(qp);
        runner.wake();
    }

    public void stop() {
        jmx.close();
        runner.stop();
        FlightEvents.stopped(this);
        port.close();
        if (counterFile != null) {
            runner.locked(counterFile::close); // no engine pass counts while the totals are folded
        }
    }

    /**
     * This device's counters across every process on the host that uses it (see
     * {@link CounterFile}), read from {@code statsDir}; empty when it is null.
     */
    public static Map<String, Long> hostCounters(String device, java.nio.file.Path statsDir) {
        Map<String, Long> m = statsDir == null ? new java.util.LinkedHashMap<>() : CounterFile.read(statsDir, device);
        m.remove("drop_none");
        return m;
    }

    /** The device counters under their shared names when they are private to this process; null when shared. */
    public Map<String, Long> privateCounters() {
        if (counterFile != null) {
            return null;
        }
        Map<String, Long> m = counters.snapshot();
        drops.counters().snapshot().forEach((k, v) -> m.put("drop_" + k, v));
        m.remove("drop_none");
        return m;
    }
}
