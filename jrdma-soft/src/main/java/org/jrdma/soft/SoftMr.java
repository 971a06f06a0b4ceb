package org.jrdma.soft;

import java.lang.foreign.MemorySegment;
import org.jrdma.soft.memory.MemoryTable;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.VerbsException;

/** A registered {@link MemorySegment}: addresses in work requests are the segment's addresses. */
public final class SoftMr implements MemoryRegion {
    /** A thread that owns no confined segment: a segment it may access is shared (never started). */
    private static final Thread NOT_THE_OWNER = new Thread(() -> { }, "jrdma-reg-mr-probe");

    private final SoftPd pd;
    private final MemorySegment segment;
    private final int access;
    private final int lkey;
    private final int rkey;
    private volatile boolean valid = true;

    SoftMr(SoftPd pd, MemorySegment segment, int access) {
        if (!segment.isNative()) {
            throw new VerbsException(Errno.EINVAL,
                    "reg_mr: only native (off-heap) segments can be registered; heap memory moves (use an Arena)");
        }
        if (!segment.isAccessibleBy(NOT_THE_OWNER)) {
            // The engine runs on its own thread and on whichever application thread polls: a
            // confined segment would throw WrongThreadException there in the middle of a packet.
            throw new VerbsException(Errno.EINVAL, "reg_mr: the segment is confined to one thread (Arena.ofConfined);"
                    + " the engine reads and writes it from other threads: use Arena.ofShared(), ofAuto() or global()");
        }
        if (segment.address() == 0) {
            // SEC-48 (ReDMArk V10): a segment from address 0 (MemorySegment.NULL reinterpreted) is
            // the process's address space, not a buffer; there is no "register everything".
            throw new VerbsException(Errno.EINVAL, "reg_mr: a segment at address 0 is the whole address space,"
                    + " not a buffer; register the buffers remote peers need");
        }
        if ((access & ~AccessFlags.ALL) != 0) {
            throw new VerbsException(Errno.EINVAL, "reg_mr: unknown access bits 0x" + Integer.toHexString(access & ~AccessFlags.ALL));
        }
        // IBA 10.6.3.1 / ibv_reg_mr(3): remote write or remote atomic requires local write.
        if ((access & (AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_ATOMIC)) != 0 && (access & AccessFlags.LOCAL_WRITE) == 0) {
            throw new VerbsException(Errno.EINVAL, "reg_mr: REMOTE_WRITE and REMOTE_ATOMIC need LOCAL_WRITE too");
        }
        if ((access & (AccessFlags.ON_DEMAND | AccessFlags.HUGETLB)) != 0) {
            throw new VerbsException(Errno.EOPNOTSUPP, "reg_mr: " + AccessFlags.toString(access
                    & (AccessFlags.ON_DEMAND | AccessFlags.HUGETLB)) + " not supported by the soft provider");
        }
        this.pd = pd;
        this.segment = segment;
        this.access = access;
        MemoryTable.KeyPair keys = new MemoryTable.KeyPair();
        pd.hca().memory().add(this, keys);
        this.lkey = keys.lkey;
        this.rkey = keys.rkey;
    }

    @Override
    public ProtectionDomain pd() {
        return pd;
    }

    public SoftPd softPd() {
        return pd;
    }

    @Override
    public MemorySegment segment() {
        return segment;
    }

    @Override
    public long addr() {
        return segment.address();
    }

    @Override
    public long length() {
        return segment.byteSize();
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

    public boolean isValid() {
        return valid && segment.scope().isAlive();
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

    @Override
    public void close() {
        if (valid) {
            valid = false;
            pd.hca().memory().remove(this);
            pd.forget(this);
        }
    }

    @Override
    public String toString() {
        return "SoftMr{length=" + length() + ", access=" + AccessFlags.toString(access) + "}";
    }
}
