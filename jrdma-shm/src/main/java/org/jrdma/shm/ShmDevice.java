package org.jrdma.shm;

import org.jrdma.verbs.Context;
import org.jrdma.verbs.Device;

/** The shm device, {@code shm0}: every context of it in this process shares one {@link Node}. */
final class ShmDevice implements Device {
    static final String NAME = "shm0";
    /** "jshm" in the high bytes, as a NIC's GUID carries its vendor. */
    static final long GUID = 0x6a73686d00000001L;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String provider() {
        return ShmProvider.NAME;
    }

    @Override
    public long guid() {
        return GUID;
    }

    @Override
    public String description() {
        return "shared memory between processes on this host (RC; data copied into the peer's registered memory)";
    }

    @Override
    public Context open() {
        return new ShmContext(this, Node.acquire());
    }

    @Override
    public String toString() {
        return NAME;
    }
}
