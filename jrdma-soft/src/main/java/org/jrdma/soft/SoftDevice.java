package org.jrdma.soft;

import java.util.HashMap;
import java.util.Map;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Device;

/**
 * A soft RoCEv2 device. Opening it binds (address, UDP 4791) and starts its engine; every
 * context of the device in this JVM shares that one socket and engine, and the last close
 * releases them.
 */
public final class SoftDevice implements Device {
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
        return SoftHca.guidOf(spec);
    }

    @Override
    public String description() {
        return "soft RoCEv2 on " + (spec.address() instanceof java.net.Inet6Address
                ? org.jrdma.verbs.Gid.of(spec.address()).toString() : spec.address().getHostAddress()) + " UDP 4791"
                + (spec.loopbackFallback() ? " (another 127.0.0.x if taken)" : "");
    }

    /**
     * The device's counters on this host, from the shared counter files (see {@link CounterFile}),
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
                        hca = SoftHca.start(spec, options);
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

    @Override
    public String toString() {
        return name() + " (" + description() + ")";
    }
}
