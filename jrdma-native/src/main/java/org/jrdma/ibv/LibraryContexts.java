package org.jrdma.ibv;

import static java.lang.foreign.ValueLayout.ADDRESS;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;
import org.jrdma.ibv.ffi.Ibv;
import org.jrdma.ibv.ffi.IbvLayouts;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;

/**
 * Contexts that another library opened, as {@link NativeContext}s: librdmacm opens each device
 * once for the process (id->verbs) and an id's QP must be made on a PD of that very context
 * (rdma_create_qp checks {@code pd->context == id->verbs}), so the CM's {@code verbs()} must be
 * that context, not one jrdma opens itself. One wrapper per {@code struct ibv_context *}; it never
 * closes the device (librdmacm does), and a closed wrapper is replaced on the next lookup.
 */
public final class LibraryContexts {
    private static final Map<Long, NativeContext> WRAPPED = new HashMap<>();

    private LibraryContexts() {
    }

    /**
     * The wrapper of {@code ibvContext} (non-NULL), made on first use; its device is looked up by name.
     *
     * @param ibvContext a {@code struct ibv_context *} a library (librdmacm) opened
     * @return the context wrapping it; closing it does not close the library's context
     */
    public static synchronized NativeContext of(MemorySegment ibvContext) {
        NativeContext c = WRAPPED.get(ibvContext.address());
        if (c != null && !c.isClosed()) {
            return c;
        }
        MemorySegment ctx = ibvContext.reinterpret(IbvLayouts.IBV_CONTEXT.byteSize());
        String name = deviceName(ctx.get(ADDRESS, IbvLayouts.offset(IbvLayouts.IBV_CONTEXT, "device")));
        NativeDevice device = null;
        for (Device d : new NativeProvider().devices()) {
            if (d instanceof NativeDevice n && n.name().equals(name)) {
                device = n;
            }
        }
        if (device == null) {
            throw new VerbsException(Errno.ENODEV, "librdmacm's context is of device " + name
                    + ", which libibverbs does not list (was it added after the process started?)");
        }
        c = new NativeContext(device, ctx, false);
        WRAPPED.put(ibvContext.address(), c);
        return c;
    }

    private static String deviceName(MemorySegment device) {
        try {
            MemorySegment s = (MemorySegment) Ibv.Fn.ibv_get_device_name$mh.invokeExact(device);
            return s.reinterpret(64).getString(0);
        } catch (Throwable t) {
            throw org.jrdma.ibv.ffi.Native.rethrow(t);
        }
    }
}
