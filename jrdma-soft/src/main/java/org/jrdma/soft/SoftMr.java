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

    private final SoftPd pd;
    private final Region region;

    SoftMr(SoftPd pd, MemorySegment segment, int access) {
        // the checks every software provider makes (heap, confined, address 0, access bits: SEC-48)
        org.jrdma.verbs.spi.RegistrationChecks.check(segment, access, AccessFlags.ON_DEMAND | AccessFlags.HUGETLB, "soft");
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
