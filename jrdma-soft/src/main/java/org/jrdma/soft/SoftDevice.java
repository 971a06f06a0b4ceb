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

    /** The device's counters on this host, from the shared counter files (see {@link CounterFile}). */
    @Override
    public java.util.Map<String, Long> counters() {
        return SoftHca.hostCounters(spec.name());
    }

    @Override
    public Context open() {
        SoftHca hca;
        synchronized (OPEN) {
            hca = OPEN.get(spec.name());
            if (hca == null) {
                hca = SoftHca.start(spec, options);
                OPEN.put(spec.name(), hca);
            }
            USERS.merge(hca, 1, Integer::sum);
        }
        return new SoftContext(this, hca);
    }

    void release(SoftHca hca) {
        boolean last;
        synchronized (OPEN) {
            int n = USERS.merge(hca, -1, Integer::sum);
            last = n <= 0;
            if (last) {
                USERS.remove(hca);
                OPEN.remove(spec.name(), hca);
            }
        }
        if (last) {
            hca.stop();
        }
    }

    @Override
    public String toString() {
        return name() + " (" + description() + ")";
    }
}
