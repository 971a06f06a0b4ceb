package org.jrdma.verbs.spi;

import java.util.List;
import org.jrdma.verbs.Device;

/**
 * A verbs provider (soft, native …), found with {@link java.util.ServiceLoader}. Its devices
 * implement the public interfaces of {@code org.jrdma.verbs}; operations a provider does not
 * override fail with EOPNOTSUPP (the interfaces' defaults), as rdma-core's dummy ops do.
 */
public interface Provider {
    /** A short name, e.g. {@code soft}. */
    String name();

    /** The devices this provider offers now (may be empty, e.g. without RDMA hardware). */
    List<Device> devices();

    /**
     * Can this provider offer devices on this machine and JVM at all? A provider whose native
     * library is missing, whose native access is not enabled, or which finds no device says
     * no, and {@link #unavailabilityCause()} says why. Cheap after the first call.
     */
    default boolean isAvailable() {
        return true;
    }

    /**
     * Why {@link #isAvailable()} is false, in one line that names the way out (a package to
     * install, the exact JVM flag to add); null while available.
     */
    default String unavailabilityCause() {
        return null;
    }
}
