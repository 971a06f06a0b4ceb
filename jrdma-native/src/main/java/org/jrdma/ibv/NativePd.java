package org.jrdma.ibv;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.jrdma.ibv.ffi.Ibv.Fn;
import org.jrdma.ibv.ffi.IbvCalls;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AddressHandle;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.MemoryWindow;
import org.jrdma.verbs.MwType;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.SharedReceiveQueue;
import org.jrdma.verbs.SrqInitAttr;
import org.jrdma.verbs.VerbsException;

/** {@code struct ibv_pd *}. */
public final class NativePd implements ProtectionDomain {
    final NativeContext context;
    final MemorySegment pd;
    private boolean closed;

    private NativePd(NativeContext context, MemorySegment pd) {
        this.context = context;
        this.pd = pd;
    }

    static NativePd alloc(NativeContext context, MemorySegment ctx) {
        MemorySegment pd = IbvCalls.pointer("ibv_alloc_pd", s -> (MemorySegment) Fn.ibv_alloc_pd$mh.invokeExact(s, ctx));
        NativePd p = new NativePd(context, pd);
        context.pds.add(pd, p);
        return p;
    }

    /**
     * The struct ibv_pd * (for rdma_create_qp and other native code).
     *
     * @return the {@code struct ibv_pd *}
     */
    public synchronized MemorySegment handle() {
        ensureOpen("pd");
        return pd;
    }

    synchronized void ensureOpen(String verb) {
        context.ensureOpen(verb);
        if (closed) {
            throw new VerbsException(Errno.EINVAL, verb + ": the protection domain was closed");
        }
    }

    @Override
    public NativeContext context() {
        return context;
    }

    /**
     * ibv_reg_mr. Refuses heap segments, and segments of an arena the program can close (use the
     * three-argument form for those; see {@link MemoryRule}).
     */
    @Override
    public MemoryRegion registerMemory(MemorySegment segment, int access) {
        MemoryRule.checkTwoArgument(segment);
        return register(segment, access);
    }

    /**
     * ibv_reg_mr tied to {@code arena}: closing the arena deregisters the region before the memory is
     * freed. If windows are still bound to the region (the kernel then refuses ibv_dereg_mr), they
     * are deallocated first, so the close still ends with nothing able to reach the memory.
     */
    @Override
    public MemoryRegion registerMemory(MemorySegment segment, int access, Arena arena) {
        java.util.Objects.requireNonNull(arena, "arena");
        MemoryRule.checkNative(segment);
        if (!segment.scope().equals(arena.scope())) {
            throw new VerbsException(Errno.EINVAL, "ibv_reg_mr: the segment is not one of the arena's (register it with"
                    + " the arena that allocated it, so that closing that arena deregisters it first)");
        }
        NativeMr mr = register(segment, access);
        // Cleanups run in reverse order of registration: this one, added after the allocation's own,
        // runs before the memory is freed.
        MemorySegment.NULL.reinterpret(arena, unused -> mr.releaseForArena());
        return mr;
    }

    private synchronized NativeMr register(MemorySegment segment, int access) {
        ensureOpen("ibv_reg_mr");
        if ((access & ~AccessFlags.ALL) != 0) {
            throw new VerbsException(Errno.EINVAL, "ibv_reg_mr: unknown access bits 0x"
                    + Integer.toHexString(access & ~AccessFlags.ALL));
        }
        int remoteNeedsLocal = AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_ATOMIC;
        if ((access & remoteNeedsLocal) != 0 && (access & AccessFlags.LOCAL_WRITE) == 0) {
            throw new VerbsException(Errno.EINVAL, "ibv_reg_mr: REMOTE_WRITE and REMOTE_ATOMIC need LOCAL_WRITE"
                    + " (ibv_reg_mr.3)");
        }
        MemorySegment mr = IbvCalls.regMr(pd, segment, access);
        NativeMr m = new NativeMr(this, mr, segment, access);
        context.mrs.add(mr, m);
        context.liveMr(m, true);
        return m;
    }

    @Override
    public NativeQp createQp(QpInitAttr initAttr) {
        ensureOpen("ibv_create_qp");
        return NativeQp.create(this, initAttr);
    }

    /**
     * A {@link org.jrdma.verbs.QueuePair} around a {@code struct ibv_qp *} that native code created
     * in this PD (rdma_create_qp), with the CQs, SRQ and type of {@code init}; closing it destroys it.
     *
     * @param ibvQp the {@code struct ibv_qp *}, created in this PD
     * @param init the attributes it was created with
     * @return the wrapper
     */
    public NativeQp adoptQp(MemorySegment ibvQp, QpInitAttr init) {
        ensureOpen("adopt ibv_qp");
        return NativeQp.adopt(this, ibvQp, init);
    }

    @Override
    public synchronized AddressHandle createAh(AhAttr attr) {
        ensureOpen("ibv_create_ah");
        MemorySegment ah = IbvCalls.createAh(pd, attr);
        NativeAh a = new NativeAh(this, ah, attr.copy());
        context.ahs.add(ah, a);
        return a;
    }

    @Override
    public synchronized SharedReceiveQueue createSrq(SrqInitAttr attr) {
        ensureOpen("ibv_create_srq");
        return NativeSrq.create(this, attr);
    }

    @Override
    public synchronized MemoryWindow allocMw(MwType type) {
        ensureOpen("ibv_alloc_mw");
        MemorySegment mw = IbvCalls.allocMw(context.ops, pd, type.value());
        NativeMw w = new NativeMw(this, mw, type);
        context.mws.add(mw, w);
        return w;
    }

    /** ibv_dealloc_pd: EBUSY while MRs, QPs, AHs, SRQs or MWs remain (the kernel refuses too). */
    @Override
    public synchronized void close() {
        if (closed || context.isClosed()) {
            return;
        }
        int rc = IbvCalls.statusQuiet(s -> (int) Fn.ibv_dealloc_pd$mh.invokeExact(s, pd));
        if (rc != 0) {
            throw org.jrdma.ibv.ffi.Native.failure("ibv_dealloc_pd", rc);
        }
        closed = true;
        context.pds.remove(pd);
    }

    /** From Context.close(): after every child. */
    synchronized void release() {
        if (!closed) {
            closed = true;
            IbvCalls.statusQuiet(s -> (int) Fn.ibv_dealloc_pd$mh.invokeExact(s, pd));
            context.pds.remove(pd);
        }
    }
}
