package org.jrdma.soft.memory;

import java.lang.foreign.MemorySegment;
import org.jrdma.verbs.AccessFlags;

/**
 * The memory side of a registered region: what the engine checks and touches on every access
 * — keys, bounds, access flags, owning PD and the segment. The verbs object (SoftMr) validates
 * a registration and wraps one of these; the table ({@link MemoryTable#register}) creates it
 * with its keys and retires it ({@link MemoryTable#remove}).
 */
public final class Region {
    private final PdId pd;
    private final MemorySegment segment;
    private final int access;
    private final int lkey;
    private final int rkey;
    /** Cleared once, by {@link MemoryTable#remove}: a deregistered region never comes back. */
    volatile boolean registered = true;

    Region(PdId pd, MemorySegment segment, int access, int lkey, int rkey) {
        this.pd = pd;
        this.segment = segment;
        this.access = access;
        this.lkey = lkey;
        this.rkey = rkey;
    }

    /** A verbs object that wraps a region (how a region is found from a work request's MR). */
    public interface Handle {
        Region region();
    }

    public PdId pd() {
        return pd;
    }

    public MemorySegment segment() {
        return segment;
    }

    public long addr() {
        return segment.address();
    }

    public long length() {
        return segment.byteSize();
    }

    public int lkey() {
        return lkey;
    }

    public int rkey() {
        return rkey;
    }

    public int access() {
        return access;
    }

    public boolean isValid() {
        return registered && segment.scope().isAlive();
    }

    /**
     * Does [addr, addr+len) lie inside this region? Written so that addr+len overflowing 2^64
     * is refused rather than wrapping (SEC-40).
     */
    public boolean contains(long addr, long len) {
        return within(addr(), addr, len);
    }

    /**
     * The address remote peers name the region's first byte by: 0 for a region registered
     * ZERO_BASED (ibv_reg_mr.3 IBV_ACCESS_ZERO_BASED; SEC-06: the peer gets an rkey and
     * offsets, never the native address), else its native address, as ibverbs does.
     */
    public long remoteBase() {
        return (access & AccessFlags.ZERO_BASED) != 0 ? 0 : addr();
    }

    /** {@link #contains} for an address in the remote peers' terms ({@link #remoteBase}). */
    public boolean containsRemote(long va, long len) {
        return within(remoteBase(), va, len);
    }

    private boolean within(long base, long addr, long len) {
        long offset = addr - base;
        return len >= 0 && Long.compareUnsigned(addr, base) >= 0 && Long.compareUnsigned(offset, length()) <= 0
                && Long.compareUnsigned(len, length() - offset) <= 0;
    }
}
