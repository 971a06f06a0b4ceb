package org.jrdma.shm;

import java.util.List;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.spi.Provider;

/** The shm provider: one device, {@code shm0}, on Linux. */
public final class ShmProvider implements Provider {
    /** The provider's name, as {@code JRDMA_PROVIDER=shm} names it. */
    public static final String NAME = "shm";

    /** Creates the provider (ServiceLoader does). */
    public ShmProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<Device> devices() {
        return List.of();
    }
}
