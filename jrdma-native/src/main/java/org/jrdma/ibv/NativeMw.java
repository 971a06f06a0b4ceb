package org.jrdma.ibv;

import java.lang.foreign.MemorySegment;
import org.jrdma.ibv.ffi.IbvCalls;
import org.jrdma.ibv.ffi.Native;
import org.jrdma.verbs.MemoryWindow;
import org.jrdma.verbs.MwType;

/** {@code struct ibv_mw *}: alloc, bind (type 1 through ibv_bind_mw, type 2 through a BIND_MW WR) and dealloc via the ops table. */
public final class NativeMw implements MemoryWindow {
    private final NativePd pd;
    private final MemorySegment mw;
    private final MwType type;
    private volatile int rkey;
    private NativeMr boundTo;
    private boolean closed;

    NativeMw(NativePd pd, MemorySegment mw, MwType type) {
        this.pd = pd;
        this.mw = mw;
        this.type = type;
        this.rkey = IbvCalls.mwRkey(mw);
    }

    MemorySegment handle() {
        return mw;
    }

    NativePd pd() {
        return pd;
    }

    boolean isClosed() {
        return closed;
    }

    /** The rkey a type-2 BIND_MW gives it next: ibv_inc_rkey (the low 8 bits, the key, step by one). */
    int nextRkey() {
        return (rkey & 0xFFFFFF00) | ((rkey + 1) & 0xFF);
    }

    /** Records a bind (the new rkey and the region, which an arena close may need to unbind). */
    void bound(int newRkey, NativeMr mr) {
        synchronized (pd.context) {
            rkey = newRkey;
            if (boundTo != null) {
                boundTo.boundWindows.remove(this);
            }
            boundTo = mr;
            if (mr != null) {
                mr.boundWindows.add(this);
            }
        }
    }

    @Override
    public MwType type() {
        return type;
    }

    @Override
    public int rkey() {
        return rkey;
    }

    @Override
    public void close() {
        synchronized (pd.context) {
            if (closed || pd.context.isClosed()) {
                return;
            }
            int rc = IbvCalls.deallocMw(pd.context.ops, mw);
            if (rc != 0) {
                throw Native.failure("ibv_dealloc_mw", rc);
            }
            forget();
        }
    }

    void release() {
        synchronized (pd.context) {
            if (!closed) {
                IbvCalls.deallocMw(pd.context.ops, mw);
                forget();
            }
        }
    }

    private void forget() {
        closed = true;
        if (boundTo != null) {
            boundTo.boundWindows.remove(this);
            boundTo = null;
        }
        pd.context.mws.remove(mw);
    }
}
