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
import java.util.Objects;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.PostException;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.SgList;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.spi.PostLists;

/**
 * Preallocated native work requests, each with room for {@code maxSge} SGEs, linked through
 * {@code next} into a post list, and the bad_wr slot: a QP's send queue, receive queue or an SRQ
 * owns one and rewrites it on every post, so that posting allocates nothing. It starts with room
 * for one WR and grows (in the owner's arena, kept until it closes) the first time a longer list
 * is posted, up to the queue's depth ({@code maxWrs}): then only when a list longer than any
 * before arrives does a post allocate. Not thread-safe: the owner posts under its queue's lock.
 */
public final class WorkRequests {
    static final ValueLayout.OfInt BE_INT = JAVA_INT.withOrder(ByteOrder.BIG_ENDIAN);
    /** A pointer as the integer it is (jrdma-native runs on 64-bit Linux only). */
    private static final ValueLayout.OfLong POINTER = JAVA_LONG;

    static {
        if (ADDRESS.byteSize() != Long.BYTES) {
            throw new ExceptionInInitializerError("jrdma-native needs 64-bit pointers");
        }
    }

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

    private final Arena arena;
    private final boolean send;
    private final int maxSge;
    private final int maxWrs;
    private final long wrBytes;
    private final long sgeBlockBytes;
    private final long nextOffset;
    private final MemorySegment badWr;
    /** {@code room} WRs back to back; WR i's sg_list points at SGE block i, its next at WR i + 1. */
    private MemorySegment wrs;
    private MemorySegment sges;
    private int room;
    /** Where the WR being filled and its SGE block start in {@link #wrs} and {@link #sges}. */
    private long wrBase;
    private long sgeBase;

    private WorkRequests(Arena arena, boolean send, int maxSge, int maxWrs) {
        this.arena = arena;
        this.send = send;
        this.maxSge = maxSge;
        this.maxWrs = Math.max(1, maxWrs);
        this.wrBytes = (send ? IBV_SEND_WR : IBV_RECV_WR).byteSize();
        this.sgeBlockBytes = IBV_SGE.byteSize() * Math.max(1, maxSge);
        this.nextOffset = send ? S_NEXT : R_NEXT;
        this.badWr = arena.allocate(ADDRESS);
        allocate(1);
        select(0);
    }

    /** A send queue's WRs: up to {@code maxWrs} (its depth) in one list. */
    public static WorkRequests forSend(Arena arena, int maxSge, int maxWrs) {
        return new WorkRequests(arena, true, maxSge, maxWrs);
    }

    /** A receive queue's or SRQ's WRs: up to {@code maxWrs} (its depth) in one list. */
    public static WorkRequests forRecv(Arena arena, int maxSge, int maxWrs) {
        return new WorkRequests(arena, false, maxSge, maxWrs);
    }

    /** One WR only (no lists), as before lists: for tests and single-WR owners. */
    public static WorkRequests forSend(Arena arena, int maxSge) {
        return forSend(arena, maxSge, 1);
    }

    public static WorkRequests forRecv(Arena arena, int maxSge) {
        return forRecv(arena, maxSge, 1);
    }

    public int maxSge() {
        return maxSge;
    }

    /** The longest list one post takes (the queue's depth). */
    public int maxWrs() {
        return maxWrs;
    }

    /** WRs there is native room for now (grows with {@link #ensureRoom}). */
    public int room() {
        return room;
    }

    /** Makes room for a list of {@code n} WRs (at most {@link #maxWrs}); allocates only when it is the longest yet. */
    public void ensureRoom(int n) {
        if (n <= room) {
            return;
        }
        if (n > maxWrs) {
            throw new IllegalArgumentException(n + " WRs in one list, the queue takes " + maxWrs);
        }
        allocate((int) Math.min(maxWrs, Math.max(n, 2L * room)));
    }

    private void allocate(int n) {
        MemorySegment w = arena.allocate(wrBytes * n, 8);
        MemorySegment g = arena.allocate(sgeBlockBytes * n, 8);
        long sgOffset = send ? S_SG_LIST : R_SG_LIST;
        for (int i = 0; i < n; i++) {
            w.set(ADDRESS, i * wrBytes + sgOffset, g.asSlice(i * sgeBlockBytes, sgeBlockBytes));
            w.set(ADDRESS, i * wrBytes + nextOffset, i + 1 < n ? w.asSlice((i + 1) * wrBytes, wrBytes) : MemorySegment.NULL);
        }
        wrs = w;
        sges = g;
        room = n;
    }

    /** Makes WR {@code index} of the list the one the fill methods write (0 ≤ index < room). */
    public void select(int index) {
        Objects.checkIndex(index, room);
        wrBase = index * wrBytes;
        sgeBase = index * sgeBlockBytes;
    }

    private void writeSges(SgList list) {
        int n = list.count();
        for (int i = 0; i < n; i++) {
            Sge s = list.get(i);
            long base = sgeBase + i * IBV_SGE.byteSize();
            sges.set(JAVA_LONG, base + SGE_ADDR, s.addr);
            sges.set(JAVA_INT, base + SGE_LENGTH, s.length);
            sges.set(JAVA_INT, base + SGE_LKEY, s.lkey);
        }
    }

    /**
     * Fills the send WR selected (WR 0 unless {@link #select} chose another). Pointers
     * ({@code ah}, {@code mw}, {@code mr}) come from live objects the caller checked; NULL where
     * the opcode needs none. The caller checked num_sge ≤ maxSge.
     */
    public void fillSend(SendWorkRequest w, MemorySegment ah, MemorySegment mw, int bindRkey, MemorySegment mr) {
        writeSges(w.sgList);
        wrs.set(JAVA_LONG, wrBase + S_WR_ID, w.wrId);
        wrs.set(JAVA_INT, wrBase + S_NUM_SGE, w.sgList.count());
        wrs.set(JAVA_INT, wrBase + S_OPCODE, w.opcode.value());
        wrs.set(JAVA_INT, wrBase + S_FLAGS, w.sendFlags);
        switch (w.opcode) {
            // imm_data is __be32: the API's int is the four bytes in network order
            case SEND_WITH_IMM, RDMA_WRITE_WITH_IMM -> wrs.set(BE_INT, wrBase + S_IMM, w.immData);
            case SEND_WITH_INV, LOCAL_INV -> wrs.set(JAVA_INT, wrBase + S_INV_RKEY, w.invalidateRkey);
            default -> wrs.set(JAVA_INT, wrBase + S_IMM, 0);
        }
        switch (w.opcode) {
            case RDMA_WRITE, RDMA_WRITE_WITH_IMM, RDMA_READ -> {
                wrs.set(JAVA_LONG, wrBase + S_RDMA_ADDR, w.remoteAddr);
                wrs.set(JAVA_INT, wrBase + S_RDMA_RKEY, w.rkey);
            }
            case ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD -> {
                wrs.set(JAVA_LONG, wrBase + S_ATOMIC_ADDR, w.remoteAddr);
                wrs.set(JAVA_LONG, wrBase + S_ATOMIC_COMPARE_ADD, w.compareAdd);
                wrs.set(JAVA_LONG, wrBase + S_ATOMIC_SWAP, w.swap);
                wrs.set(JAVA_INT, wrBase + S_ATOMIC_RKEY, w.rkey);
            }
            case BIND_MW -> {
                wrs.set(ADDRESS, wrBase + S_BIND_MW, mw);
                wrs.set(JAVA_INT, wrBase + S_BIND_RKEY, bindRkey);
                wrs.set(ADDRESS, wrBase + S_BIND_MR, mr);
                wrs.set(JAVA_LONG, wrBase + S_BIND_ADDR, w.bind.addr());
                wrs.set(JAVA_LONG, wrBase + S_BIND_LENGTH, w.bind.length());
                wrs.set(JAVA_INT, wrBase + S_BIND_ACCESS, w.bind.accessFlags());
            }
            default -> {
                if (!ah.equals(MemorySegment.NULL)) {
                    wrs.set(ADDRESS, wrBase + S_UD_AH, ah);
                    wrs.set(JAVA_INT, wrBase + S_UD_QPN, w.remoteQpn);
                    wrs.set(JAVA_INT, wrBase + S_UD_QKEY, w.remoteQkey);
                }
            }
        }
    }

    /** Fills the receive WR selected. The caller checked num_sge ≤ maxSge. */
    public void fillRecv(RecvWorkRequest w) {
        writeSges(w.sgList);
        wrs.set(JAVA_LONG, wrBase + R_WR_ID, w.wrId);
        wrs.set(JAVA_INT, wrBase + R_NUM_SGE, w.sgList.count());
    }

    /** Calls a post slot of the ops table (post_send, post_recv or post_srq_recv) on WR 0 alone; returns its errno. */
    public int post(MemorySegment fn, MemorySegment queue) {
        return post(fn, queue, 1);
    }

    /**
     * Links WRs 0 … n-1 (the last one's next NULL) and calls a post slot of the ops table on
     * them, one call for the list; returns its errno. On failure {@link #badIndex} says which WR
     * the library reported in bad_wr.
     */
    public int post(MemorySegment fn, MemorySegment queue, int n) {
        Objects.checkFromIndexSize(0, n, room);
        terminate(n);
        badWr.set(POINTER, 0, 0L);
        try {
            return (int) Ops.POST$mh.invokeExact(fn, queue, wrs, badWr);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        } finally {
            relink(n);
        }
    }

    /** Ends the list after WR n-1: what {@link #post(MemorySegment, MemorySegment, int)} hands the library. */
    public void terminate(int n) {
        // Pointers are written as their 64-bit addresses: a MemorySegment for each would allocate.
        wrs.set(POINTER, (n - 1) * wrBytes + nextOffset, 0L);
    }

    /** Undoes {@link #terminate}: WR n-1 leads to WR n again, for a longer list later. */
    public void relink(int n) {
        if (n < room) {
            wrs.set(POINTER, (n - 1) * wrBytes + nextOffset, wrs.address() + n * wrBytes);
        }
    }

    /**
     * The WR that bad_wr points to after a failed post of {@code n} WRs, as its index in the list;
     * 0 (the head: nothing posted) when the library left it NULL or pointed outside the list.
     */
    public int badIndex(int n) {
        long bad = badWr.get(POINTER, 0);
        long offset = bad - wrs.address();
        if (bad == 0 || offset < 0 || offset % wrBytes != 0 || offset / wrBytes >= n) {
            return 0;
        }
        return (int) (offset / wrBytes);
    }

    /** The native list (for tests that read back what was marshalled): WR i at {@code i × wrBytes()}. */
    public MemorySegment list() {
        return wrs;
    }

    /** The bad_wr slot (for tests that play the library's part). */
    MemorySegment badWrSlot() {
        return badWr;
    }

    public long wrBytes() {
        return wrBytes;
    }

    /**
     * ibv_post_recv / ibv_post_srq_recv of {@code head} and its {@code next} chain through the
     * ops slot {@code fn}: each WR checked (num_sge ≤ maxSge) and marshalled into this list, then
     * one call for all of them. When a WR is refused — here, or by the library through bad_wr —
     * those before it are posted and a {@link PostException} names it; a cyclic list is refused
     * before anything is posted, a list longer than {@link #maxWrs} with ENOMEM at the WR past
     * it. {@code verb} and {@code granted} word the errors ("ibv_post_recv", "the queue was
     * granted"); {@code depth} names the queue's depth ("max_recv_wr").
     */
    public void postRecvs(MemorySegment fn, MemorySegment queue, RecvWorkRequest head, String verb, String granted,
            String depth) {
        int length = head.next == null ? 1 : PostLists.length(head);
        if (length < 0) {
            throw PostException.cyclic(verb, head);
        }
        int n = Math.min(length, maxWrs);
        ensureRoom(n);
        VerbsException refused = null;
        int filled = 0;
        RecvWorkRequest wr = head;
        for (; filled < n; filled++, wr = wr.next) {
            if (wr.sgList.count() > maxSge) {
                refused = new VerbsException(Errno.EINVAL, verb + ": " + wr.sgList.count() + " SGEs, " + granted + " " + maxSge);
                break;
            }
            select(filled);
            fillRecv(wr);
        }
        if (refused == null && filled < length) {
            refused = tooLong(verb, length, depth);
        }
        if (filled > 0) {
            int rc = post(fn, queue, filled);
            if (rc != 0) {
                int bad = badIndex(filled);
                throw PostException.of(Native.failure(verb, rc < 0 ? -rc : rc), PostLists.at(head, bad), bad);
            }
        }
        if (refused != null) {
            throw PostException.of(refused, wr, filled);
        }
    }

    /** ENOMEM for a list of {@code length} WRs when the queue holds {@link #maxWrs}. */
    public VerbsException tooLong(String verb, int length, String depth) {
        return new VerbsException(Errno.ENOMEM, verb + ": the post list has " + length + " WRs, more than the queue holds ("
                + depth + " " + maxWrs + ")");
    }

    /** Whether this is a send WR (for assertions in the owner). */
    public boolean isSend() {
        return send;
    }
}
