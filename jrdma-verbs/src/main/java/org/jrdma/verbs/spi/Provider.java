package org.jrdma.verbs.spi;

import java.util.List;
import org.jrdma.verbs.Device;

/**
 * A verbs provider (soft, native …), found with {@link java.util.ServiceLoader}. Its devices
 * implement the public interfaces of {@code org.jrdma.verbs}; operations a provider does not
 * override fail with EOPNOTSUPP (the interfaces' defaults), as rdma-core's dummy ops do.
 */
public interface Provider {
    /** {@return a short name, e.g. {@code soft}, as {@code JRDMA_PROVIDER} and {@link Device#provider()} give it} */
    String name();

    /** {@return the devices this provider offers now (may be empty, e.g. without RDMA hardware)} */
    List<Device> devices();

    /**
     * Can this provider offer devices on this machine and JVM at all? A provider whose native
     * library is missing, whose native access is not enabled, or which finds no device says
     * no, and {@link #unavailabilityCause()} says why. Cheap after the first call.
     *
     * @return true when {@link #devices()} can answer (true by default)
     */
    default boolean isAvailable() {
        return true;
    }

    /**
     * Why {@link #isAvailable()} is false, in one line that names the way out (a package to
     * install, the exact JVM flag to add); null while available.
     *
     * @return the cause, or null
     */
    default String unavailabilityCause() {
        return null;
    }
}
