package org.jrdma.shm;

import java.util.List;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.spi.Provider;

/** The shm provider: one device, {@code shm0}, on Linux. */
public final class ShmProvider implements Provider {
    /** The provider's name, as {@code JRDMA_PROVIDER=shm} names it. */
    public static final String NAME = "shm";
    private static final Device DEVICE = new ShmDevice();

    /** Creates the provider (ServiceLoader does). */
    public ShmProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean isAvailable() {
        return unavailabilityCause() == null;
    }

    @Override
    public String unavailabilityCause() {
        String os = System.getProperty("os.name", "");
        return os.startsWith("Linux") ? null
                : "the shm provider needs Linux (memfd, /proc/<pid>/fd, futex); this is " + os;
    }

    @Override
    public List<Device> devices() {
        return isAvailable() ? List.of(DEVICE) : List.of();
    }
}
