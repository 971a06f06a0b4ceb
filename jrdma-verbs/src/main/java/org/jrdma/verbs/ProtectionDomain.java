package org.jrdma.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/** {@code struct ibv_pd}: memory regions and queue pairs belong to one and only meet inside it. */
public interface ProtectionDomain extends AutoCloseable {
    /** {@return the context the PD was allocated on} */
    Context context();

    /**
     * ibv_reg_mr over a native {@link MemorySegment} (heap segments move and are refused).
     * {@code access} is a set of {@link AccessFlags}; remote write or atomic needs LOCAL_WRITE.
     *
     * @param segment the memory to register, all of it
     * @param access  the {@link AccessFlags} the region grants
     * @return the region, with its lkey and rkey
     * @throws VerbsException EINVAL for a heap segment or bad flags; ENOMEM past the device's MR limit
     */
    MemoryRegion registerMemory(MemorySegment segment, int access);

    /**
     * ibv_reg_mr over a segment of {@code arena}, tied to it: closing the arena deregisters the
     * region first, before its memory is freed, so a NIC can never write into freed memory. This
     * is the form for memory of an arena the program closes (such as {@link Arena#ofShared()});
     * the native provider refuses such a segment in the two-argument
     * form (the soft provider, which reaches memory only through the segment, takes both).
     * Closing the region earlier is fine; the arena's close then finds it closed.
     *
     * @param segment the memory to register, allocated by {@code arena}
     * @param access  the {@link AccessFlags} the region grants
     * @param arena   the arena whose close deregisters the region
     * @return the region, with its lkey and rkey
     * @throws VerbsException EINVAL when the segment is not one of {@code arena}'s
     */
    default MemoryRegion registerMemory(MemorySegment segment, int access, Arena arena) {
        Objects.requireNonNull(arena, "arena");
        if (!segment.scope().equals(arena.scope())) {
            throw new VerbsException(Errno.EINVAL, "reg_mr: the segment is not one of the arena's (register it with"
                    + " the arena that allocated it, so that closing that arena deregisters it first)");
        }
        MemoryRegion mr = registerMemory(segment, access);
        // Cleanups run in reverse order of registration: this one, added after the allocation's
        // own, runs before the memory is freed.
        MemorySegment.NULL.reinterpret(arena, unused -> mr.close());
        return mr;
    }

    /**
     * ibv_create_qp: the QP starts in RESET with a random QPN.
     *
     * @param initAttr its type, CQs, optional SRQ and queue sizes
     * @return the new QP
     * @throws VerbsException EINVAL for missing CQs or sizes beyond the device's limits; EOPNOTSUPP for a
     *     type the provider lacks
     */
    QueuePair createQp(QpInitAttr initAttr);

    /**
     * ibv_create_ah: an address handle for UD sends.
     *
     * @param attr the destination's address vector (on RoCE global, to its GID)
     * @return the handle
     * @throws VerbsException EOPNOTSUPP when the provider has no UD
     */
    default AddressHandle createAh(AhAttr attr) {
        throw VerbsException.unsupported("create_ah");
    }

    /**
     * ibv_create_srq.
     *
     * @param attr its size and initial limit
     * @return the SRQ, to give to {@link QpInitAttr#srq(SharedReceiveQueue)}
     * @throws VerbsException EOPNOTSUPP when the provider has no SRQs
     */
    default SharedReceiveQueue createSrq(SrqInitAttr attr) {
        throw VerbsException.unsupported("create_srq");
    }

    /**
     * ibv_alloc_mw.
     *
     * @param type type 1 (bound by {@link QueuePair#bindMw}) or type 2 (bound by a BIND_MW WR)
     * @return the unbound window
     * @throws VerbsException EOPNOTSUPP when the provider has no memory windows
     */
    default MemoryWindow allocMw(MwType type) {
        throw VerbsException.unsupported("alloc_mw");
    }

    /** ibv_dealloc_pd: refused with EBUSY while MRs or QPs remain. */
    @Override
    void close();
}
