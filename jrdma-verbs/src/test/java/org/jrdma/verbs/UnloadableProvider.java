package org.jrdma.verbs;

import java.util.List;
import org.jrdma.verbs.spi.Provider;

/** A provider on this module's test class path whose constructor fails, as one missing a native library might. */
public final class UnloadableProvider implements Provider {
    public UnloadableProvider() {
        throw new IllegalStateException("cannot start on purpose");
    }

    @Override
    public String name() {
        return "unloadable";
    }

    @Override
    public List<Device> devices() {
        return List.of();
    }
}
