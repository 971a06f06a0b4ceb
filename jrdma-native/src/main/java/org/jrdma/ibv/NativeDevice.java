package org.jrdma.ibv;

import java.lang.foreign.MemorySegment;
import org.jrdma.ibv.ffi.IbvCalls;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Device;

/** A device from ibv_get_device_list. Any number of contexts may be open on it at once. */
public final class NativeDevice implements Device {
    private final IbvCalls.DeviceEntry entry;

    NativeDevice(IbvCalls.DeviceEntry entry) {
        this.entry = entry;
    }

    @Override
    public String name() {
        return entry.name();
    }

    @Override
    public String provider() {
        return NativeProvider.NAME;
    }

    @Override
    public long guid() {
        return entry.guid();
    }

    @Override
    public String description() {
        return "libibverbs device " + entry.name();
    }

    /** ibv_open_device. */
    @Override
    public NativeContext open() {
        MemorySegment ctx = IbvCalls.openDevice(entry.device(), entry.name());
        return new NativeContext(this, ctx);
    }

    @Override
    public String toString() {
        return entry.name() + " (native)";
    }

    /**
     * The struct ibv_device * (for librdmacm and other native code that needs it).
     *
     * @return the {@code struct ibv_device *}
     */
    public MemorySegment handle() {
        return entry.device();
    }

    /** For {@link Context} equality in tools: same device, same name. */
    @Override
    public boolean equals(Object o) {
        return o instanceof NativeDevice d && d.entry.device().equals(entry.device());
    }

    @Override
    public int hashCode() {
        return entry.device().hashCode();
    }
}
