package org.jrdma.ibv;

import java.lang.foreign.MemorySegment;
import org.jrdma.ibv.ffi.Ibv.Fn;
import org.jrdma.ibv.ffi.IbvCalls;
import org.jrdma.ibv.ffi.Native;
import org.jrdma.verbs.AddressHandle;
import org.jrdma.verbs.AhAttr;

/** {@code struct ibv_ah *}. */
public final class NativeAh implements AddressHandle {
    private final NativePd pd;
    private final MemorySegment ah;
    private final AhAttr attr;
    private volatile boolean closed;

    NativeAh(NativePd pd, MemorySegment ah, AhAttr attr) {
        this.pd = pd;
        this.ah = ah;
        this.attr = attr;
    }

    MemorySegment handle() {
        return ah;
    }

    NativePd pd() {
        return pd;
    }

    boolean isClosed() {
        return closed;
    }

    @Override
    public AhAttr attr() {
        return attr.copy();
    }

    @Override
    public void close() {
        synchronized (pd.context) {
            if (closed || pd.context.isClosed()) {
                return;
            }
            int rc = IbvCalls.statusQuiet(s -> (int) Fn.ibv_destroy_ah$mh.invokeExact(s, ah));
            if (rc != 0) {
                throw Native.failure("ibv_destroy_ah", rc);
            }
            forget();
        }
    }

    void release() {
        synchronized (pd.context) {
            if (!closed) {
                IbvCalls.statusQuiet(s -> (int) Fn.ibv_destroy_ah$mh.invokeExact(s, ah));
                forget();
            }
        }
    }

    private void forget() {
        closed = true;
        pd.context.ahs.remove(ah);
    }
}
