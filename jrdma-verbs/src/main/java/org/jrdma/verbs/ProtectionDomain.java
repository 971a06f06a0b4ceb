package org.jrdma.verbs;

import java.lang.foreign.MemorySegment;

/** {@code struct ibv_pd}: memory regions and queue pairs belong to one and only meet inside it. */
public interface ProtectionDomain extends AutoCloseable {
    Context context();

    /**
     * ibv_reg_mr over a native {@link MemorySegment} (heap segments move and are refused).
     * {@code access} is a set of {@link AccessFlags}; remote write or atomic needs LOCAL_WRITE.
     */
    MemoryRegion registerMemory(MemorySegment segment, int access);

    /** ibv_create_qp: the QP starts in RESET with a random QPN. */
    QueuePair createQp(QpInitAttr initAttr);

    /** ibv_create_ah (UD). */
    default AddressHandle createAh(AhAttr attr) {
        throw VerbsException.unsupported("create_ah");
    }

    /** ibv_create_srq. */
    default SharedReceiveQueue createSrq(SrqInitAttr attr) {
        throw VerbsException.unsupported("create_srq");
    }

    /** ibv_alloc_mw. */
    default MemoryWindow allocMw(MwType type) {
        throw VerbsException.unsupported("alloc_mw");
    }

    /** ibv_dealloc_pd: refused with EBUSY while MRs or QPs remain. */
    @Override
    void close();
}
