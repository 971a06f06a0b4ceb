package org.jrdma.cm;

import java.util.List;
import java.util.ServiceLoader;
import org.jrdma.cm.spi.CmBackend;
import org.jrdma.verbs.Device;

/**
 * Which CM an event channel runs on: a {@link CmBackend} of the provider whose device comes first
 * among those the options offer (the device {@code Verbs.device(null)} and so the tools take by
 * default; with JRDMA_PROVIDER=auto|soft|native that list holds one provider's devices only),
 * else the built-in CM. A channel keeps its choice: librdmacm's ids cannot share a channel with
 * ours, as a kernel rdma_cm id cannot share one with a process's own.
 */
final class Backends {
    private static final List<CmBackend> LOADED = load();

    private Backends() {
    }

    private static List<CmBackend> load() {
        try {
            return ServiceLoader.load(CmBackend.class).stream().map(ServiceLoader.Provider::get).toList();
        } catch (java.util.ServiceConfigurationError e) {
            return List.of(); // a backend that cannot even load leaves the built-in CM in charge
        }
    }

    /** The backend for these devices, or null for the built-in CM. */
    static CmBackend forDevices(java.util.function.Supplier<List<Device>> offered) {
        return choose(LOADED, offered);
    }

    /** The choice among {@code loaded} backends (the ServiceLoader's, or a test's). */
    static CmBackend choose(List<CmBackend> loaded, java.util.function.Supplier<List<Device>> offered) {
        if (loaded.isEmpty()) {
            return null; // the devices are not even asked for: nothing changes for the built-in CM
        }
        List<Device> devices = offered.get();
        if (devices.isEmpty()) {
            return null;
        }
        String provider = devices.getFirst().provider();
        for (CmBackend b : loaded) {
            if (b.provider().equals(provider)) {
                if (!b.isAvailable()) {
                    throw new CmException(CmError.NO_DEVICE, "device " + devices.getFirst().name() + " is " + provider
                            + "'s, whose connection manager cannot run: " + b.unavailabilityCause());
                }
                return b;
            }
        }
        return null;
    }
}
