package org.jrdma.tools;

import java.util.List;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.spi.Provider;

/** A test provider, "throwing", whose devices() fails while {@code jrdma.test.throwing.provider} is set (none otherwise). */
public final class ThrowingProvider implements Provider {
    public static final String PROPERTY = "jrdma.test.throwing.provider";

    @Override
    public String name() {
        return "throwing";
    }

    @Override
    public List<Device> devices() {
        String why = System.getProperty(PROPERTY);
        if (why != null) {
            throw new IllegalStateException(why);
        }
        return List.of();
    }
}
