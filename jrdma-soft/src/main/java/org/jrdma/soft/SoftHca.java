package org.jrdma.soft;

import java.io.IOException;
import java.net.BindException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Map;
import org.jrdma.soft.mem.IntMap;
import org.jrdma.soft.mem.MemoryTable;
import org.jrdma.soft.mem.Quarantine;
import org.jrdma.soft.mem.SecureIds;
import org.jrdma.soft.net.Datagrams;
import org.jrdma.soft.net.PcapWriter;
import org.jrdma.soft.net.Ipv6Endpoint;
import org.jrdma.soft.net.PortHolder;
import org.jrdma.soft.net.RoceEndpoint;
import org.jrdma.soft.net.UdpDatagrams;
import org.jrdma.soft.stage.Counters;
import org.jrdma.soft.stage.QpCounter;
import org.jrdma.soft.wire.DropReason;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.VerbsException;

/**
 * One soft device's hardware: its UDP socket, its QPs and memory regions, and the engine that
 * moves packets, run by an {@link EngineRunner}. The engine is an agent in Aeron's sense: {@link #doWork()} does a bounded
 * amount of work and returns how much; it runs on a dedicated thread, or — with
 * {@link ThreadingMode#INVOKER} — whenever the caller (a test) calls it, so tests can step the
 * transport deterministically.
 */
public final class SoftHca {
    private final SoftDeviceSpec spec;
    private final SoftOptions options;
    private final Datagrams datagrams;
    private final Gid gid;
    /** Port 1's endpoint: the bound address, whose family is the device's. */
    private final RoceEndpoint endpoint;
    private final Mtu activeMtu;
    private final MemoryTable memory = new MemoryTable();
    /** The device counters' file, shared with other processes; null when they stay private. */
    private final CounterFile counterFile;
    private final Counters<QpCounter> counters;
    private final Counters<DropReason> drops;
    private final IntMap<SoftQp> qpsByNumber = new IntMap<>();
    /** QPNs of destroyed QPs, not handed out again for 2^16 destructions (SEC-03: a stale QPN reaches nothing). */
    private final Quarantine retiredQpns = new Quarantine(Quarantine.DEFAULT_CAPACITY);
    private volatile SoftQp[] qps = new SoftQp[0];
    private final Engine engine;
    private final DropLog dropLog;
    private volatile long firstTxNanos;
    private volatile boolean portActive = true;
    private volatile boolean fatal;
    private final java.util.Set<SoftContext> contexts = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final EngineRunner runner;

    private static final System.Logger PCAP_LOG = System.getLogger("org.jrdma.soft.pcap");
    /** The capture, or null: none asked for, or stopped after a write failed (see {@link #capture}). */
    private volatile PcapWriter pcap;
    private long packetsCaptured;

    private SoftHca(SoftDeviceSpec spec, SoftOptions options, Datagrams datagrams) {
        this.spec = spec;
        this.pcap = openPcap(spec, options);
        this.options = options;
        this.datagrams = datagrams;
        InetSocketAddress local = datagrams.localAddress();
        this.gid = Gid.of(local.getAddress());
        this.endpoint = RoceEndpoint.of(local);
        this.activeMtu = Mtu.forEthernetMtu(spec.ethernetMtu());
        this.counterFile = options.statsDir() == null ? null
                : CounterFile.create(options.statsDir(), spec.name(), counterNames()).orElse(null);
        if (counterFile != null) {
            java.lang.foreign.MemorySegment v = counterFile.values();
            long split = Counters.byteSize(QpCounter.class);
            this.counters = new Counters<>(QpCounter.class, v.asSlice(0, split));
            this.drops = new Counters<>(DropReason.class, v.asSlice(split));
        } else {
            this.counters = new Counters<>(QpCounter.class);
            this.drops = new Counters<>(DropReason.class);
        }
        this.engine = new Engine(this);
        this.runner = new EngineRunner(spec.name(), engine, datagrams, options.clock(), options.threading(),
                BackoffIdle::new, this::deviceFatal);
        this.dropLog = new DropLog(spec.name(), options.clock());
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
        Datagrams d = bind(spec, options);
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

    private static Datagrams bind(SoftDeviceSpec spec, SoftOptions options) {
        InetAddress first = spec.address();
        int tries = spec.loopbackFallback() ? 254 : 1;
        byte[] a = first.getAddress();
        BindException last = null;
        PortHolder firstHolder = null;
        for (int i = 0; i < tries; i++) {
            InetAddress addr = first;
            if (i > 0) {
                a[3] = (byte) (i + 1); // 127.0.0.1 → .2 → … → .254
                try {
                    addr = InetAddress.getByAddress(a);
                } catch (UnknownHostException e) {
                    throw new IllegalStateException(e);
                }
                if (addr.equals(first)) {
                    continue;
                }
            }
            InetSocketAddress local = new InetSocketAddress(addr, UdpDatagrams.ROCE_PORT);
            try {
                return options.datagrams().open(local);
            } catch (BindException e) {
                if (notLocal(e, addr)) {
                    throw new VerbsException(Errno.EADDRNOTAVAIL, "open_device " + spec.name() + ": "
                            + text(addr) + " is not an address of this host (" + e.getMessage() + "); a soft"
                            + " device binds a local address — `ip addr` lists them — set with " + SoftDeviceDiscovery.ENV, e);
                }
                last = e;
                if (firstHolder == null) {
                    firstHolder = PortHolder.diagnose(addr, UdpDatagrams.ROCE_PORT);
                    if (firstHolder.kind() == PortHolder.Kind.WILDCARD) {
                        // 0.0.0.0:4791 holds the port on every address: no other 127.0.0.N can help
                        throw new VerbsException(Errno.EADDRINUSE, "open_device " + spec.name() + ": cannot bind UDP "
                                + endpoint(addr) + ": " + firstHolder.explain(), e);
                    }
                }
            } catch (IOException e) {
                throw new VerbsException(Errno.EIO, "open_device " + spec.name() + ": cannot open UDP " + local + ": " + e.getMessage(), e);
            }
        }
        String by = firstHolder != null && firstHolder.owner() != null && !spec.loopbackFallback()
                ? "by " + firstHolder.owner()
                : "by another jrdma process or another program bound to " + (spec.loopbackFallback() ? "them" : "it");
        throw new VerbsException(Errno.EADDRINUSE, "open_device " + spec.name() + ": UDP " + endpoint(first) + " is taken"
                + (spec.loopbackFallback() ? ", and so is every 127.0.0.x" : "") + " (" + by + "); choose another address with "
                + SoftDeviceDiscovery.ENV + (first instanceof java.net.Inet6Address ? "=name=<another local IPv6 address>" : "=name=127.0.0.N"), last);
    }

    /** An address as people write it: 127.0.0.1, or fd00::77 (not Java's fd00:0:0:0:0:0:0:77). */
    private static String text(InetAddress a) {
        return a instanceof java.net.Inet6Address ? Gid.of(a).toString() : a.getHostAddress();
    }

    /** address:4791, with an IPv6 address in brackets. */
    private static String endpoint(InetAddress a) {
        return (a instanceof java.net.Inet6Address ? "[" + text(a) + "]" : text(a)) + ":" + UdpDatagrams.ROCE_PORT;
    }

    /**
     * EADDRNOTAVAIL, which Java reports as a BindException too: the address is not this host's.
     * The message is strerror's (English unless the locale says otherwise), so a non-loopback
     * address that no interface carries counts as well; every 127.x is local.
     */
    private static boolean notLocal(BindException e, InetAddress addr) {
        if (e.getMessage() != null && e.getMessage().contains("Cannot assign requested address")) {
            return true;
        }
        try {
            return !addr.isLoopbackAddress() && java.net.NetworkInterface.getByInetAddress(addr) == null;
        } catch (java.net.SocketException | RuntimeException unknown) {
            return false;
        }
    }

    /**
     * Opens the pcap the options ask for. One asked for by name ({@link SoftOptions#pcap}) that
     * cannot be created fails the open, naming the reason; one from {@value SoftOptions#PCAP_DIR_ENV}
     * is skipped with one warning per directory, and the device runs without capture.
     */
    private static PcapWriter openPcap(SoftDeviceSpec spec, SoftOptions options) {
        java.nio.file.Path file = options.pcap();
        if (file == null) {
            return null;
        }
        try {
            return PcapWriter.create(file);
        } catch (IOException e) {
            java.nio.file.Path dir = file.toAbsolutePath().getParent();
            String why = "cannot write pcap " + file + ": " + (dir == null || java.nio.file.Files.isDirectory(dir)
                    ? FileTrouble.reason(e)
                    : java.nio.file.Files.exists(dir) ? dir + " is not a directory" : "no such directory " + dir);
            if (options.pcapRequired()) {
                throw new VerbsException(Errno.EIO, "open_device " + spec.name() + ": " + why, e);
            }
            FileTrouble.warnOnce(PCAP_LOG, "pcap " + dir, "jrdma-soft " + spec.name() + ": not recording packets (" + why
                    + "); the devices run without capture — point " + SoftOptions.PCAP_DIR_ENV + " at a writable directory");
            return null;
        }
    }

    /** Whether packets are being recorded (false when none was asked for, or the capture stopped). */
    boolean capturing() {
        return pcap != null;
    }

    /** Records a packet received from {@code source}, unless it is our own (a device talking to itself would appear twice). */
    void captureReceived(RoceEndpoint source, java.nio.ByteBuffer buffer, int length) {
        PcapWriter open = pcap;
        if (open == null || source.sameAs(endpoint)) {
            return;
        }
        try {
            if (source.record(open, endpoint, buffer, 0, length)) {
                packetsCaptured++;
            }
        } catch (IOException e) {
            stopCapture(open, e);
        }
    }

    /** Records a packet sent to {@code to}. */
    void captureSent(RoceEndpoint to, java.nio.ByteBuffer buffer, int length) {
        PcapWriter open = pcap;
        if (open == null) {
            return;
        }
        try {
            if (endpoint.record(open, to, buffer, 0, length)) {
                packetsCaptured++;
            }
        } catch (IOException e) {
            stopCapture(open, e);
        }
    }

    /** Records a packet sent to a QP's peer, in the form its transport state keeps it (see {@link RoceEndpoint}). */
    void captureSent(int toIpv4, byte[] toIpv6, int toPort, java.nio.ByteBuffer buffer, int length) {
        PcapWriter open = pcap;
        if (open == null) {
            return;
        }
        try {
            if (endpoint.record(open, toIpv4, toIpv6, toPort, buffer, 0, length)) {
                packetsCaptured++;
            }
        } catch (IOException e) {
            stopCapture(open, e);
        }
    }

    /**
     * A pcap write failed (a full disk, a removed directory): the capture stops here, with one
     * warning that names the file and the reason. Retrying every packet would print a line per
     * packet and spend the data path's time on a failing file.
     */
    private void stopCapture(PcapWriter failed, IOException e) {
        pcap = null;
        try {
            failed.close();
        } catch (IOException again) {
            // the flush in close fails the same way; the file keeps what was written
        }
        FileTrouble.warnOnce(PCAP_LOG, "pcap write " + failed.file(), "jrdma-soft " + spec.name() + ": stopped recording packets"
                + " after " + packetsCaptured + ": cannot write " + failed.file() + ": " + FileTrouble.reason(e)
                + " (traffic goes on; the file holds what was written before)");
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
        return datagrams.localAddress();
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
        drops.snapshot().forEach((k, v) -> m.put("drop_" + k, v));
        m.remove("drop_none");
        if (datagrams instanceof org.jrdma.soft.net.ImpairedDatagrams impaired) {
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
        return portActive;
    }

    /**
     * Takes port 1 down or up, as a cable pull would: while down nothing is sent or received
     * (the transports see loss); every context of the device gets PORT_ERR, then PORT_ACTIVE.
     */
    public void setPortActive(boolean active) {
        if (portActive == active) {
            return;
        }
        portActive = active;
        for (SoftContext c : contexts) {
            c.postAsync(active ? org.jrdma.verbs.AsyncEventType.PORT_ACTIVE : org.jrdma.verbs.AsyncEventType.PORT_ERR,
                    null, null, null, 1);
        }
    }

    /** The device's socket failed for good: every context learns it once (DEVICE_FATAL). */
    void deviceFatal(Exception cause) {
        if (fatal) {
            return;
        }
        fatal = true;
        portActive = false;
        System.err.println("jrdma-soft " + spec.name() + ": device failed: " + cause);
        for (SoftContext c : contexts) {
            c.postAsync(org.jrdma.verbs.AsyncEventType.DEVICE_FATAL, null, null, null, 0);
        }
    }

    /** Clock time of the first RDMA packet this device sent, or 0 before any. */
    public long firstTxNanos() {
        return firstTxNanos;
    }

    void noteTx() {
        if (firstTxNanos == 0) {
            firstTxNanos = options.clock().nanoTime();
        }
    }

    long count(QpCounter c) {
        return counters.get(c);
    }

    void drop(DropReason reason) {
        drops.increment(reason);
        dropLog.note(reason); // SEC-33: counted always, logged at most DropLog.LINES_PER_INTERVAL per second
    }

    /** The rate-limited drop log (SEC-33). */
    DropLog dropLog() {
        return dropLog;
    }

    long drops(DropReason reason) {
        return drops.get(reason);
    }

    /** Port 1's endpoint: the address and UDP port the device is bound to. */
    RoceEndpoint endpoint() {
        return endpoint;
    }

    /** True for a device bound to an IPv6 address (its GID is that address, not ::ffff:-mapped). */
    boolean isIpv6() {
        return endpoint instanceof Ipv6Endpoint;
    }

    /** Strict unless the options say compat (SEC-12). */
    SourceCheck sourceCheck() {
        return options.sourceCheck() == null ? SourceCheck.STRICT : options.sourceCheck();
    }

    Datagrams datagrams() {
        return datagrams;
    }

    NanoClock clock() {
        return options.clock();
    }

    // ------------------------------------------------------------------ QPs

    SoftQp createQp(SoftPd pd, QpInitAttr init) {
        synchronized (qpsByNumber) {
            if (qpsByNumber.size() >= SoftLimits.MAX_QP) {
                throw new VerbsException(Errno.ENOMEM, "create_qp: the device has " + SoftLimits.MAX_QP + " QPs already");
            }
            int qpn;
            if (init.qpType() == QpType.GSI) {
                // QP1 is the device's, not a context's: the CM of whichever context made it owns
                // every CM message to this address until it is destroyed.
                if (qpsByNumber.containsKey(QpType.GSI_QP_NUM)) {
                    throw new VerbsException(Errno.EBUSY, "create_qp: the device's GSI QP (QP1) exists already");
                }
                qpn = QpType.GSI_QP_NUM;
            } else {
                do {
                    qpn = SecureIds.qpn(); // never 0 or 1
                } while (qpsByNumber.containsKey(qpn) || retiredQpns.contains(qpn));
            }
            SoftQp qp = new SoftQp(pd, this, qpn, init);
            qpsByNumber.put(qpn, qp);
            SoftQp[] next = java.util.Arrays.copyOf(qps, qps.length + 1);
            next[next.length - 1] = qp;
            qps = next;
            return qp;
        }
    }

    void removeQp(SoftQp qp) {
        synchronized (qpsByNumber) {
            qpsByNumber.remove(qp.qpNum());
            if (qp.qpNum() != QpType.GSI_QP_NUM) {
                retiredQpns.add(qp.qpNum());
            }
            SoftQp[] cur = qps;
            SoftQp[] next = new SoftQp[cur.length - 1];
            int j = 0;
            for (SoftQp q : cur) {
                if (q != qp && j < next.length) {
                    next[j++] = q;
                }
            }
            qps = next;
        }
    }

    SoftQp qp(int qpn) {
        synchronized (qpsByNumber) {
            return qpsByNumber.get(qpn);
        }
    }

    SoftQp[] qps() {
        return qps;
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
        try {
            datagrams.close();
        } catch (IOException e) {
            // closing: nothing left to do with the error
        }
        PcapWriter open = pcap;
        if (open != null) {
            pcap = null;
            try {
                open.close();
            } catch (IOException e) {
                stopCapture(open, e); // the last buffered packets did not fit: say so
            }
        }
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
        drops.snapshot().forEach((k, v) -> m.put("drop_" + k, v));
        m.remove("drop_none");
        return m;
    }
}
