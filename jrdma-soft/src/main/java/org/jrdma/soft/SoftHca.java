package org.jrdma.soft;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.util.Map;
import org.jrdma.soft.memory.MemoryTable;
import org.jrdma.soft.net.Datagrams;
import org.jrdma.soft.net.Ipv6Endpoint;
import org.jrdma.soft.net.RoceEndpoint;
import org.jrdma.soft.transport.Counters;
import org.jrdma.soft.transport.QpCounter;
import org.jrdma.soft.wire.DropReason;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.VerbsException;

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
    private final SoftDeviceSpec spec;
    private final SoftPort port;
    private final Gid gid;
    private final Mtu activeMtu;
    private final MemoryTable memory = new MemoryTable();
    private final QpTable<SoftQp> qps = new QpTable<>(new SoftQp[0]);
    /** The device counters' file, shared with other processes; null when they stay private. */
    private final CounterFile counterFile;
    private final Counters<QpCounter> counters;
    private final Drops drops;
    private final Engine engine;
    private final EngineRunner runner;
    private final java.util.Set<SoftContext> contexts = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private SoftHca(SoftDeviceSpec spec, SoftOptions options, Datagrams datagrams) {
        this.spec = spec;
        this.port = new SoftPort(spec.name(), datagrams, SoftPort.openPcap(spec, options), options.clock());
        this.gid = Gid.of(datagrams.localAddress().getAddress());
        this.activeMtu = Mtu.forEthernetMtu(spec.ethernetMtu());
        this.counterFile = options.statsDir() == null ? null
                : CounterFile.create(options.statsDir(), spec.name(), counterNames()).orElse(null);
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
        this.drops = new Drops(dropCounters, new DropLog(spec.name(), options.clock()));
        SourceCheck sourceCheck = options.sourceCheck() == null ? SourceCheck.STRICT : options.sourceCheck(); // SEC-12
        this.engine = new Engine(spec.name(), port, qps, counters, drops, sourceCheck, options.clock());
        this.runner = new EngineRunner(spec.name(), engine, datagrams, options.clock(), options.threading(),
                options.idle()::strategy, this::deviceFatal);
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

    /** Binds the device's address (or, for the default loopback device, the next free one) and starts it. */
    static SoftHca start(SoftDeviceSpec spec, SoftOptions options) {
        if (!(spec.address() instanceof Inet4Address) && !(spec.address() instanceof java.net.Inet6Address)) {
            throw new VerbsException(Errno.EOPNOTSUPP, "open_device " + spec.name() + ": not an IP address: " + spec.address());
        }
        Datagrams d = SoftPort.bind(spec, options);
        SoftHca hca;
        try {
            hca = new SoftHca(spec, options, d);
        } catch (RuntimeException | Error e) {
            // e.g. a pcap asked for by name that cannot be created: the socket must not stay
            // bound, or every later open of the device in this process fails with EADDRINUSE
            try {
                d.close();
            } catch (IOException notClosed) {
                e.addSuppressed(notClosed);
            }
            throw e;
        }
        hca.runner.start();
        return hca;
    }

    /** Whether packets are being recorded (false when none was asked for, or the capture stopped). */
    boolean capturing() {
        return port.capturing();
    }

    static long guidOf(SoftDeviceSpec spec) {
        // A stable, locally administered GUID derived from the address (like a MAC-based EUI-64).
        byte[] ip = spec.address().getAddress();
        long g = 0x0200_5eff_fe00_0000L;
        for (byte b : ip) {
            g = (g << 8) ^ (b & 0xFF) ^ (g >>> 56);
        }
        return g;
    }

    public SoftDeviceSpec spec() {
        return spec;
    }

    public long guid() {
        return guidOf(spec);
    }

    /** GID index 0: the address the device is bound to, IPv4-mapped for an IPv4 device, itself for IPv6. */
    public Gid gid() {
        return gid;
    }

    public InetSocketAddress localAddress() {
        return port.datagrams().localAddress();
    }

    /** Port 1's endpoint: the address and UDP port the device is bound to. */
    RoceEndpoint endpoint() {
        return port.endpoint();
    }

    public Mtu activeMtu() {
        return activeMtu;
    }

    MemoryTable memory() {
        return memory;
    }

    Counters<QpCounter> counters() {
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

    void attach(SoftContext c) {
        contexts.add(c);
    }

    void detach(SoftContext c) {
        contexts.remove(c);
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
        for (SoftContext c : contexts) {
            c.postAsync(active ? org.jrdma.verbs.AsyncEventType.PORT_ACTIVE : org.jrdma.verbs.AsyncEventType.PORT_ERR,
                    null, null, null, 1);
        }
    }

    /** The device's socket failed for good: every context learns it once (DEVICE_FATAL). */
    void deviceFatal(Exception cause) {
        if (!port.fail()) {
            return;
        }
        System.err.println("jrdma-soft " + spec.name() + ": device failed: " + cause);
        for (SoftContext c : contexts) {
            c.postAsync(org.jrdma.verbs.AsyncEventType.DEVICE_FATAL, null, null, null, 0);
        }
    }

    /** Clock time of the first RDMA packet this device sent, or 0 before any. */
    public long firstTxNanos() {
        return port.firstTxNanos();
    }

    long count(QpCounter c) {
        return counters.get(c);
    }

    /** The rate-limited drop log (SEC-33). */
    DropLog dropLog() {
        return drops.log();
    }

    long drops(DropReason reason) {
        return drops.count(reason);
    }

    /** True for a device bound to an IPv6 address (its GID is that address, not ::ffff:-mapped). */
    boolean isIpv6() {
        return port.endpoint() instanceof Ipv6Endpoint;
    }

    Datagrams datagrams() {
        return port.datagrams();
    }

    /** How the engine thread idles ({@link SoftOptions#idle}). */
    IdleStrategy idleStrategy() {
        return runner.idleStrategy();
    }

    // ------------------------------------------------------------------ QPs

    SoftQp createQp(SoftPd pd, QpInitAttr init) {
        return qps.create(init.qpType(), qpn -> new SoftQp(pd, this, qpn, init));
    }

    void removeQp(SoftQp qp) {
        qps.remove(qp);
    }

    SoftQp qp(int qpn) {
        return qps.get(qpn);
    }

    SoftQp[] qps() {
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
    void progressFromApp() {
        runner.progressFromApp();
    }

    /** The application is polling (and found completions): the engine thread stays parked. */
    void noteAppActive() {
        runner.noteAppActive();
    }

    /** {@link #progressFromApp} after a post_send: the requesters send first. */
    void progressAfterPost() {
        runner.progressAfterPost();
    }

    /**
     * Sends the ACK a QP is holding for coalescing before the QP is destroyed or reset: the
     * peer's last message was executed and must be acknowledged, or the peer would retry
     * against a QP that is gone. Waits for the engine (lock order: engine, then QP).
     */
    void flushHeldAck(SoftQp qp) {
        runner.locked(() -> engine.flushAck(qp));
    }

    /** The application is about to block: the engine thread takes over at once. */
    void appBlocking() {
        runner.appBlocking();
    }

    /** Tells the engine that there is something to send (called after post_send / modify). */
    void wake() {
        runner.wake();
    }

    void stop() {
        runner.stop();
        port.close();
        if (counterFile != null) {
            runner.locked(counterFile::close); // no engine pass counts while the totals are folded
        }
    }

    /**
     * This device's counters across every process on the host that uses it (see
     * {@link CounterFile}), read from {@code statsDir}; empty when it is null.
     */
    static Map<String, Long> hostCounters(String device, java.nio.file.Path statsDir) {
        Map<String, Long> m = statsDir == null ? new java.util.LinkedHashMap<>() : CounterFile.read(statsDir, device);
        m.remove("drop_none");
        return m;
    }

    /** The device counters under their shared names when they are private to this process; null when shared. */
    Map<String, Long> privateCounters() {
        if (counterFile != null) {
            return null;
        }
        Map<String, Long> m = counters.snapshot();
        drops.counters().snapshot().forEach((k, v) -> m.put("drop_" + k, v));
        m.remove("drop_none");
        return m;
    }
}
