package org.jrdma.ibv;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.ibv.ffi.IbvCalls;
import org.jrdma.ibv.ffi.Native;
import org.jrdma.verbs.MemoryRegion;

/** {@code struct ibv_mr *}. Holds its segment, so that memory of an automatic arena stays alive while registered. */
public final class NativeMr implements MemoryRegion {
    private final NativePd pd;
    private final MemorySegment mr;
    private final MemorySegment segment;
    private final int access;
    private final int lkey;
    private final int rkey;
    private final long addr;
    private final long length;
    /** Windows whose last bind was onto this region (dealloc'ed if an arena close finds them). */
    final List<NativeMw> boundWindows = new ArrayList<>();
    private volatile boolean closed;

    NativeMr(NativePd pd, MemorySegment mr, MemorySegment segment, int access) {
        this.pd = pd;
        this.mr = mr;
        this.segment = segment;
        this.access = access;
        this.lkey = IbvCalls.mrLkey(mr);
        this.rkey = IbvCalls.mrRkey(mr);
        this.addr = segment.address();
        this.length = segment.byteSize();
    }

    MemorySegment handle() {
        return mr;
    }

    boolean isClosed() {
        return closed;
    }

    /** Does [a, a + n) lie inside this live region? (The inline-send check: libibverbs reads those bytes.) */
    boolean covers(long a, long n) {
        return !closed && n >= 0 && a >= addr && a + n <= addr + length && a + n >= a;
    }

    @Override
    public NativePd pd() {
        return pd;
    }

    @Override
    public MemorySegment segment() {
        return segment;
    }

    @Override
    public long addr() {
        return addr;
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public int lkey() {
        return lkey;
    }

    @Override
    public int rkey() {
        return rkey;
    }

    @Override
    public int access() {
        return access;
    }

    /** ibv_dereg_mr; a second close does nothing. */
    @Override
    public void close() {
        synchronized (pd.context) {
            if (closed || pd.context.isClosed()) {
                return;
            }
            int rc = IbvCalls.deregMr(mr);
            if (rc != 0) {
                throw Native.failure("ibv_dereg_mr", rc);
            }
            forget();
        }
    }

    private void forget() {
        closed = true;
        pd.context.mrs.remove(mr);
        pd.context.liveMr(this, false);
    }

    /**
     * The owning arena is closing: the region must be gone before the memory is freed. A window
     * still bound to it makes the kernel refuse the dereg (IBA 10.6.7.2.6), so those windows are
     * deallocated first, then the region is deregistered again.
     */
    void releaseForArena() {
        synchronized (pd.context) {
            if (closed || pd.context.isClosed()) {
                return;
            }
            int rc = IbvCalls.deregMr(mr);
            if (rc != 0) {
                for (NativeMw w : List.copyOf(boundWindows)) {
                    w.release();
                }
                rc = IbvCalls.deregMr(mr);
            }
            if (rc != 0) {
                throw new IllegalStateException("arena close: " + Native.failure("ibv_dereg_mr", rc).getMessage()
                        + " — the region could not be deregistered before its memory is freed");
            }
            forget();
        }
    }

    /** From Context.close(), after QPs and windows. */
    void release() {
        synchronized (pd.context) {
            if (!closed) {
                IbvCalls.deregMr(mr);
                forget();
            }
        }
    }

    @Override
    public String toString() {
        return "NativeMr{length=" + length + "}";
    }
}
