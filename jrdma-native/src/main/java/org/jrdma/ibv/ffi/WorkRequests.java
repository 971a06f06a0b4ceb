package org.jrdma.ibv.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.jrdma.ibv.ffi.IbvLayouts.IBV_RECV_WR;
import static org.jrdma.ibv.ffi.IbvLayouts.IBV_SEND_WR;
import static org.jrdma.ibv.ffi.IbvLayouts.IBV_SGE;
import static org.jrdma.ibv.ffi.IbvLayouts.offset;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.SgList;
import org.jrdma.verbs.Sge;

/**
 * One preallocated native work request with room for {@code maxSge} SGEs and the bad_wr slot: a
 * QP's send queue, receive queue or an SRQ owns one and rewrites it on every post, so that posting
 * allocates nothing. Not thread-safe: the owner posts under its queue's lock.
 */
public final class WorkRequests {
    static final ValueLayout.OfInt BE_INT = JAVA_INT.withOrder(ByteOrder.BIG_ENDIAN);

    private static final long S_WR_ID = offset(IBV_SEND_WR, "wr_id");
    private static final long S_NEXT = offset(IBV_SEND_WR, "next");
    private static final long S_SG_LIST = offset(IBV_SEND_WR, "sg_list");
    private static final long S_NUM_SGE = offset(IBV_SEND_WR, "num_sge");
    private static final long S_OPCODE = offset(IBV_SEND_WR, "opcode");
    private static final long S_FLAGS = offset(IBV_SEND_WR, "send_flags");
    private static final long S_IMM = offset(IBV_SEND_WR, "imm_data");
    private static final long S_INV_RKEY = offset(IBV_SEND_WR, "invalidate_rkey");
    private static final long S_RDMA_ADDR = offset(IBV_SEND_WR, "wr.rdma.remote_addr");
    private static final long S_RDMA_RKEY = offset(IBV_SEND_WR, "wr.rdma.rkey");
    private static final long S_ATOMIC_ADDR = offset(IBV_SEND_WR, "wr.atomic.remote_addr");
    private static final long S_ATOMIC_COMPARE_ADD = offset(IBV_SEND_WR, "wr.atomic.compare_add");
    private static final long S_ATOMIC_SWAP = offset(IBV_SEND_WR, "wr.atomic.swap");
    private static final long S_ATOMIC_RKEY = offset(IBV_SEND_WR, "wr.atomic.rkey");
    private static final long S_UD_AH = offset(IBV_SEND_WR, "wr.ud.ah");
    private static final long S_UD_QPN = offset(IBV_SEND_WR, "wr.ud.remote_qpn");
    private static final long S_UD_QKEY = offset(IBV_SEND_WR, "wr.ud.remote_qkey");
    private static final long S_BIND_MW = offset(IBV_SEND_WR, "bind_mw.mw");
    private static final long S_BIND_RKEY = offset(IBV_SEND_WR, "bind_mw.rkey");
    private static final long S_BIND_MR = offset(IBV_SEND_WR, "bind_mw.bind_info.mr");
    private static final long S_BIND_ADDR = offset(IBV_SEND_WR, "bind_mw.bind_info.addr");
    private static final long S_BIND_LENGTH = offset(IBV_SEND_WR, "bind_mw.bind_info.length");
    private static final long S_BIND_ACCESS = offset(IBV_SEND_WR, "bind_mw.bind_info.mw_access_flags");
    private static final long R_WR_ID = offset(IBV_RECV_WR, "wr_id");
    private static final long R_NEXT = offset(IBV_RECV_WR, "next");
    private static final long R_SG_LIST = offset(IBV_RECV_WR, "sg_list");
    private static final long R_NUM_SGE = offset(IBV_RECV_WR, "num_sge");
    private static final long SGE_ADDR = offset(IBV_SGE, "addr");
    private static final long SGE_LENGTH = offset(IBV_SGE, "length");
    private static final long SGE_LKEY = offset(IBV_SGE, "lkey");

    private final MemorySegment wr;
    private final MemorySegment sges;
    private final MemorySegment badWr;
    private final boolean send;
    private final int maxSge;

    private WorkRequests(Arena arena, boolean send, int maxSge) {
        this.send = send;
        this.maxSge = maxSge;
        this.wr = arena.allocate(send ? IBV_SEND_WR : IBV_RECV_WR);
        this.sges = arena.allocate(IBV_SGE.byteSize() * Math.max(1, maxSge), 8);
        this.badWr = arena.allocate(ADDRESS);
        wr.set(ADDRESS, send ? S_SG_LIST : R_SG_LIST, sges);
        wr.set(ADDRESS, send ? S_NEXT : R_NEXT, MemorySegment.NULL);
    }

    public static WorkRequests forSend(Arena arena, int maxSge) {
        return new WorkRequests(arena, true, maxSge);
    }

    public static WorkRequests forRecv(Arena arena, int maxSge) {
        return new WorkRequests(arena, false, maxSge);
    }

    public int maxSge() {
        return maxSge;
    }

    private void writeSges(SgList list) {
        int n = list.count();
        for (int i = 0; i < n; i++) {
            Sge s = list.get(i);
            long base = i * IBV_SGE.byteSize();
            sges.set(JAVA_LONG, base + SGE_ADDR, s.addr);
            sges.set(JAVA_INT, base + SGE_LENGTH, s.length);
            sges.set(JAVA_INT, base + SGE_LKEY, s.lkey);
        }
    }

    /**
     * Fills the send WR. Pointers ({@code ah}, {@code mw}, {@code mr}) come from live objects the
     * caller checked; NULL where the opcode needs none. The caller checked num_sge ≤ maxSge.
     */
    public void fillSend(SendWorkRequest w, MemorySegment ah, MemorySegment mw, int bindRkey, MemorySegment mr) {
        writeSges(w.sgList);
        wr.set(JAVA_LONG, S_WR_ID, w.wrId);
        wr.set(JAVA_INT, S_NUM_SGE, w.sgList.count());
        wr.set(JAVA_INT, S_OPCODE, w.opcode.value());
        wr.set(JAVA_INT, S_FLAGS, w.sendFlags);
        switch (w.opcode) {
            // imm_data is __be32: the API's int is the four bytes in network order
            case SEND_WITH_IMM, RDMA_WRITE_WITH_IMM -> wr.set(BE_INT, S_IMM, w.immData);
            case SEND_WITH_INV, LOCAL_INV -> wr.set(JAVA_INT, S_INV_RKEY, w.invalidateRkey);
            default -> wr.set(JAVA_INT, S_IMM, 0);
        }
        switch (w.opcode) {
            case RDMA_WRITE, RDMA_WRITE_WITH_IMM, RDMA_READ -> {
                wr.set(JAVA_LONG, S_RDMA_ADDR, w.remoteAddr);
                wr.set(JAVA_INT, S_RDMA_RKEY, w.rkey);
            }
            case ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD -> {
                wr.set(JAVA_LONG, S_ATOMIC_ADDR, w.remoteAddr);
                wr.set(JAVA_LONG, S_ATOMIC_COMPARE_ADD, w.compareAdd);
                wr.set(JAVA_LONG, S_ATOMIC_SWAP, w.swap);
                wr.set(JAVA_INT, S_ATOMIC_RKEY, w.rkey);
            }
            case BIND_MW -> {
                wr.set(ADDRESS, S_BIND_MW, mw);
                wr.set(JAVA_INT, S_BIND_RKEY, bindRkey);
                wr.set(ADDRESS, S_BIND_MR, mr);
                wr.set(JAVA_LONG, S_BIND_ADDR, w.bind.addr());
                wr.set(JAVA_LONG, S_BIND_LENGTH, w.bind.length());
                wr.set(JAVA_INT, S_BIND_ACCESS, w.bind.accessFlags());
            }
            default -> {
                if (!ah.equals(MemorySegment.NULL)) {
                    wr.set(ADDRESS, S_UD_AH, ah);
                    wr.set(JAVA_INT, S_UD_QPN, w.remoteQpn);
                    wr.set(JAVA_INT, S_UD_QKEY, w.remoteQkey);
                }
            }
        }
    }

    public void fillRecv(RecvWorkRequest w) {
        writeSges(w.sgList);
        wr.set(JAVA_LONG, R_WR_ID, w.wrId);
        wr.set(JAVA_INT, R_NUM_SGE, w.sgList.count());
    }

    /** Calls a post slot of the ops table (post_send, post_recv or post_srq_recv) on this WR; returns its errno. */
    public int post(MemorySegment fn, MemorySegment queue) {
        try {
            return (int) Ops.POST$mh.invokeExact(fn, queue, wr, badWr);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** Whether this is a send WR (for assertions in the owner). */
    public boolean isSend() {
        return send;
    }
}
