package org.jrdma.soft;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.Map;
import org.jrdma.soft.engine.DeviceSetup;
import org.jrdma.soft.engine.FileTrouble;
import org.jrdma.soft.engine.SoftHca;
import org.jrdma.soft.net.Datagrams;
import org.jrdma.soft.net.PcapWriter;
import org.jrdma.soft.net.PortHolder;
import org.jrdma.soft.net.UdpDatagrams;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.VerbsException;

/**
 * A soft RoCEv2 device. Opening it binds (address, UDP 4791), opens the capture the options
 * ask for, and starts its engine ({@link SoftHca}); every context of the device in this JVM
 * shares that one socket and engine, and the last close releases them.
 */
public final class SoftDevice implements Device {
    private static final System.Logger PCAP_LOG = System.getLogger("org.jrdma.soft.pcap");
    private static final Map<String, SoftHca> OPEN = new HashMap<>();
    private static final Map<SoftHca, Integer> USERS = new HashMap<>();
    /**
     * Devices whose last context closed and whose HCA is still stopping (its socket still
     * bound): an open of the same name in between waits for it instead of failing to bind.
     */
    private static final Map<String, java.util.concurrent.CountDownLatch> STOPPING = new HashMap<>();
    private static final long STOP_WAIT_SECONDS = 10;

    private final SoftDeviceSpec spec;
    private final SoftOptions options;

    public SoftDevice(SoftDeviceSpec spec) {
        this(spec, SoftOptions.forDevice(spec.name()));
    }

    public SoftDevice(SoftDeviceSpec spec, SoftOptions options) {
        this.spec = spec;
        this.options = options;
    }

    public SoftDeviceSpec spec() {
        return spec;
    }

    /** The same device, opened with other options (e.g. a pcap file). */
    public SoftDevice withOptions(SoftOptions newOptions) {
        return new SoftDevice(spec, newOptions);
    }

    public SoftOptions options() {
        return options;
    }

    @Override
    public String name() {
        return spec.name();
    }

    @Override
    public String provider() {
        return SoftProvider.NAME;
    }

    @Override
    public long guid() {
        return guidOf(spec);
    }

    @Override
    public String description() {
        return "soft RoCEv2 on " + (spec.address() instanceof java.net.Inet6Address
                ? org.jrdma.verbs.Gid.of(spec.address()).toString() : spec.address().getHostAddress()) + " UDP 4791"
                + (spec.loopbackFallback() ? " (another 127.0.0.x if taken)" : "");
    }

    /**
     * The device's counters on this host, from the shared counter files (see {@code CounterFile}),
     * plus this process's own when it has the device open and its counters could not be shared.
     */
    @Override
    public java.util.Map<String, Long> counters() {
        java.util.Map<String, Long> m = SoftHca.hostCounters(spec.name(), options.statsDir());
        SoftHca open;
        synchronized (OPEN) {
            open = OPEN.get(spec.name());
        }
        java.util.Map<String, Long> own = open == null ? null : open.privateCounters();
        if (own != null) {
            own.forEach((k, v) -> m.merge(k, v, Long::sum));
        }
        return m;
    }

    @Override
    public Context open() {
        SoftHca hca;
        while (true) {
            java.util.concurrent.CountDownLatch stopping;
            synchronized (OPEN) {
                stopping = STOPPING.get(spec.name());
                if (stopping == null) {
                    hca = OPEN.get(spec.name());
                    if (hca == null) {
                        hca = start(spec, options);
                        OPEN.put(spec.name(), hca);
                    }
                    USERS.merge(hca, 1, Integer::sum);
                    break;
                }
            }
            awaitStopped(stopping);
        }
        return new SoftContext(this, hca);
    }

    /**
     * {@link #open()}, or — when another process has the device's address bound — a context that
     * answers queries from the device's configuration ({@link SoftQueryContext}), so that
     * {@code devinfo} shows a device in use elsewhere. A port held on the wildcard address (the
     * kernel's RoCE) is no such case: nothing on this host can use the device, and that error stands.
     */
    @Override
    public Context openForQuery() {
        try {
            return open();
        } catch (org.jrdma.verbs.VerbsException e) {
            if (e.errno() != org.jrdma.verbs.Errno.EADDRINUSE) {
                throw e;
            }
            org.jrdma.soft.net.PortHolder h = org.jrdma.soft.net.PortHolder.diagnose(spec.address(),
                    org.jrdma.soft.net.UdpDatagrams.ROCE_PORT);
            if (h.kind() != org.jrdma.soft.net.PortHolder.Kind.SAME_ADDRESS) {
                throw e;
            }
            return new SoftQueryContext(this, h.explain());
        }
    }

    private void awaitStopped(java.util.concurrent.CountDownLatch stopping) {
        try {
            if (!stopping.await(STOP_WAIT_SECONDS, java.util.concurrent.TimeUnit.SECONDS)) {
                throw new org.jrdma.verbs.VerbsException(org.jrdma.verbs.Errno.EBUSY, "open_device " + spec.name()
                        + ": its previous context is still closing after " + STOP_WAIT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new org.jrdma.verbs.VerbsException(org.jrdma.verbs.Errno.EIO, "open_device " + spec.name() + ": interrupted while its previous context closed");
        }
    }

    void release(SoftHca hca) {
        java.util.concurrent.CountDownLatch stopped = null;
        synchronized (OPEN) {
            int n = USERS.merge(hca, -1, Integer::sum);
            if (n <= 0) {
                USERS.remove(hca);
                OPEN.remove(spec.name(), hca);
                stopped = new java.util.concurrent.CountDownLatch(1);
                STOPPING.put(spec.name(), stopped);
            }
        }
        if (stopped != null) {
            try {
                hca.stop();
            } finally {
                synchronized (OPEN) {
                    STOPPING.remove(spec.name(), stopped);
                }
                stopped.countDown();
            }
        }
    }

    // ------------------------------------------------------------------ opening (ibv_open_device)

    /** Binds the device's address (or, for the default loopback device, the next free one) and starts it. */
    private static SoftHca start(SoftDeviceSpec spec, SoftOptions options) {
        if (!(spec.address() instanceof java.net.Inet4Address) && !(spec.address() instanceof java.net.Inet6Address)) {
            throw new VerbsException(Errno.EOPNOTSUPP, "open_device " + spec.name() + ": not an IP address: " + spec.address());
        }
        Datagrams d = bind(spec, options);
        SoftHca hca;
        try {
            DeviceSetup setup = new DeviceSetup(spec.name(), guidOf(spec), spec.ethernetMtu(), options.clock(),
                    options.statsDir(), options.sourceCheck(), options.threading(), options.idle()::strategy);
            hca = new SoftHca(setup, d, openPcap(spec, options));
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
        hca.start();
        return hca;
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

    /**
     * Opens the pcap the options ask for. One asked for by name ({@link SoftOptions#pcap}) that
     * cannot be created fails the open, naming the reason; one from {@value SoftOptions#PCAP_DIR_ENV}
     * is skipped with one warning per directory, and the device runs without capture.
     */
    static PcapWriter openPcap(SoftDeviceSpec spec, SoftOptions options) {
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

    /** Binds the device's address (or, for the default loopback device, the next free 127.0.0.N). */
    static Datagrams bind(SoftDeviceSpec spec, SoftOptions options) {
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

    @Override
    public String toString() {
        return name() + " (" + description() + ")";
    }
}
