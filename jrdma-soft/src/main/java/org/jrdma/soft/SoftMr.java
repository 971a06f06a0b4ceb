package org.jrdma.soft;

import java.lang.foreign.MemorySegment;
import org.jrdma.soft.memory.Region;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.VerbsException;

/**
 * A registered {@link MemorySegment}, the verbs object: addresses in work requests are the
 * segment's addresses. It checks a registration against ibv_reg_mr's rules; what the engine
 * reads on every access is its {@link Region}.
 */
public final class SoftMr implements MemoryRegion, Region.Handle {
    /** A thread that owns no confined segment: a segment it may access is shared (never started). */
    private static final Thread NOT_THE_OWNER = new Thread(() -> { }, "jrdma-reg-mr-probe");

    private final SoftPd pd;
    private final Region region;

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
        this.region = pd.hca().memory().register(pd.id(), segment, access);
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
        return region.segment();
    }

    @Override
    public long addr() {
        return region.addr();
    }

    @Override
    public long length() {
        return region.length();
    }

    @Override
    public int lkey() {
        return region.lkey();
    }

    @Override
    public int rkey() {
        return region.rkey();
    }

    @Override
    public int access() {
        return region.access();
    }

    public boolean isValid() {
        return region.isValid();
    }

    /** The memory side: keys, bounds and access as the engine checks them. */
    @Override
    public Region region() {
        return region;
    }

    @Override
    public void close() {
        if (pd.hca().memory().remove(region)) {
            pd.forget(this);
        }
    }

    @Override
    public String toString() {
        return "SoftMr{length=" + length() + ", access=" + AccessFlags.toString(access()) + "}";
    }
}
