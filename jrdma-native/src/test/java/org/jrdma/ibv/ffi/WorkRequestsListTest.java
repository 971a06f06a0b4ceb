package org.jrdma.ibv.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.PostException;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Post lists marshalled into native memory, without a device: the WRs are read back from the
 * native list as a provider library would walk it (through {@code next}), and the library itself
 * is played by an upcall in the ops slot's place, which records what one call received and
 * answers with an errno and a bad_wr of its choice.
 */
class WorkRequestsListTest {
    private static final long S_WR_ID = IbvLayouts.offset(IbvLayouts.IBV_SEND_WR, "wr_id");
    private static final long S_NEXT = IbvLayouts.offset(IbvLayouts.IBV_SEND_WR, "next");
    private static final long S_SG_LIST = IbvLayouts.offset(IbvLayouts.IBV_SEND_WR, "sg_list");
    private static final long S_NUM_SGE = IbvLayouts.offset(IbvLayouts.IBV_SEND_WR, "num_sge");
    private static final long S_OPCODE = IbvLayouts.offset(IbvLayouts.IBV_SEND_WR, "opcode");
    private static final long S_FLAGS = IbvLayouts.offset(IbvLayouts.IBV_SEND_WR, "send_flags");
    private static final long S_IMM = IbvLayouts.offset(IbvLayouts.IBV_SEND_WR, "imm_data");
    private static final long S_RDMA_ADDR = IbvLayouts.offset(IbvLayouts.IBV_SEND_WR, "wr.rdma.remote_addr");
    private static final long S_RDMA_RKEY = IbvLayouts.offset(IbvLayouts.IBV_SEND_WR, "wr.rdma.rkey");
    private static final long R_WR_ID = IbvLayouts.offset(IbvLayouts.IBV_RECV_WR, "wr_id");
    private static final long R_NEXT = IbvLayouts.offset(IbvLayouts.IBV_RECV_WR, "next");
    private static final long R_SG_LIST = IbvLayouts.offset(IbvLayouts.IBV_RECV_WR, "sg_list");
    private static final long R_NUM_SGE = IbvLayouts.offset(IbvLayouts.IBV_RECV_WR, "num_sge");
    private static final long SGE_BYTES = IbvLayouts.IBV_SGE.byteSize();

    /** What the fake library saw: the wr_ids of each call's list, in list order. */
    private static final List<List<Long>> CALLS = new ArrayList<>();
    /** It refuses the WR at this position of its list (-1: none) with ENOMEM, naming it in bad_wr. */
    private static int failAt = -1;

    private Arena arena;
    private MemorySegment fakePost;
    private final MemorySegment queue = MemorySegment.ofAddress(0x1000);

    /** The fake ibv_post_recv: walks the receive list through next, as a provider does. */
    static int postRecv(MemorySegment qp, MemorySegment wr, MemorySegment badWr) {
        List<Long> ids = new ArrayList<>();
        int i = 0;
        for (MemorySegment w = wr.reinterpret(IbvLayouts.IBV_RECV_WR.byteSize()); w.address() != 0; i++) {
            if (i == failAt) {
                badWr.reinterpret(ADDRESS.byteSize()).set(ADDRESS, 0, w);
                CALLS.add(ids);
                return Errno.ENOMEM.value();
            }
            ids.add(w.get(JAVA_LONG, R_WR_ID));
            w = w.get(ADDRESS, R_NEXT).reinterpret(IbvLayouts.IBV_RECV_WR.byteSize());
        }
        CALLS.add(ids);
        return 0;
    }

    @BeforeEach
    void playTheLibrary() throws ReflectiveOperationException {
        CALLS.clear();
        failAt = -1;
        arena = Arena.ofConfined();
        var handle = MethodHandles.lookup().findStatic(WorkRequestsListTest.class, "postRecv",
                MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class, MemorySegment.class));
        fakePost = Linker.nativeLinker().upcallStub(handle, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS), arena);
    }

    @AfterEach
    void close() {
        arena.close();
    }

    private static RecvWorkRequest[] recvList(int n) {
        RecvWorkRequest[] wrs = new RecvWorkRequest[n];
        for (int i = n - 1; i >= 0; i--) {
            wrs[i] = new RecvWorkRequest().wrId(i).sg(new Sge(0x10000L + 64 * i, 64, 0x77)).next(i + 1 < n ? wrs[i + 1] : null);
        }
        return wrs;
    }

    @Test
    void aSendListIsLinkedThroughNextAndEachWrReadsBackAsPosted() {
        WorkRequests w = WorkRequests.forSend(arena, 2, 8);
        assertThat(w.room()).as("room before any list").isEqualTo(1);
        w.ensureRoom(3);
        assertThat(w.room()).isBetween(3, 8);
        SendWorkRequest[] wrs = {
            new SendWorkRequest().wrId(0xA0).opcode(WrOpcode.SEND_WITH_IMM).imm(0x01020304).flags(SendFlags.SIGNALED)
                    .sg(new Sge(0x1000, 100, 5)),
            new SendWorkRequest().wrId(0xA1).opcode(WrOpcode.RDMA_WRITE).rdma(0xFEED0000L, 0x4242)
                    .sg(new Sge(0x2000, 200, 6), new Sge(0x3000, 300, 7)),
            new SendWorkRequest().wrId(0xA2).opcode(WrOpcode.SEND).sg(new Sge(0x4000, 400, 8)),
        };
        for (int i = 0; i < wrs.length; i++) {
            w.select(i);
            w.fillSend(wrs[i], MemorySegment.NULL, MemorySegment.NULL, 0, MemorySegment.NULL);
        }
        w.terminate(3);
        MemorySegment list = w.list();
        long at = list.address();
        for (int i = 0; i < 3; i++) {
            MemorySegment wr = MemorySegment.ofAddress(at).reinterpret(w.wrBytes());
            assertThat(wr.get(JAVA_LONG, S_WR_ID)).as("wr_id of WR %d", i).isEqualTo(wrs[i].wrId);
            assertThat(wr.get(JAVA_INT, S_OPCODE)).as("opcode of WR %d", i).isEqualTo(wrs[i].opcode.value());
            assertThat(wr.get(JAVA_INT, S_FLAGS)).isEqualTo(wrs[i].sendFlags);
            int sges = wrs[i].sgList.count();
            assertThat(wr.get(JAVA_INT, S_NUM_SGE)).isEqualTo(sges);
            MemorySegment sg = wr.get(ADDRESS, S_SG_LIST).reinterpret(SGE_BYTES * sges);
            for (int k = 0; k < sges; k++) {
                assertThat(sg.get(JAVA_LONG, k * SGE_BYTES)).as("SGE %d of WR %d", k, i).isEqualTo(wrs[i].sgList.get(k).addr);
                assertThat(sg.get(JAVA_INT, k * SGE_BYTES + 8)).isEqualTo(wrs[i].sgList.get(k).length);
                assertThat(sg.get(JAVA_INT, k * SGE_BYTES + 12)).isEqualTo(wrs[i].sgList.get(k).lkey);
            }
            at = wr.get(ADDRESS, S_NEXT).address();
            if (i < 2) {
                assertThat(at).as("next of WR %d", i).isEqualTo(list.address() + (i + 1) * w.wrBytes());
            }
        }
        assertThat(at).as("next of the last WR").isZero();
        MemorySegment first = MemorySegment.ofAddress(list.address()).reinterpret(w.wrBytes());
        assertThat(first.get(JAVA_INT.withOrder(ByteOrder.BIG_ENDIAN), S_IMM)).as("imm_data, network order").isEqualTo(0x01020304);
        MemorySegment second = MemorySegment.ofAddress(list.address() + w.wrBytes()).reinterpret(w.wrBytes());
        assertThat(second.get(JAVA_LONG, S_RDMA_ADDR)).isEqualTo(0xFEED0000L);
        assertThat(second.get(JAVA_INT, S_RDMA_RKEY)).isEqualTo(0x4242);
        w.relink(3);
        if (w.room() > 3) {
            MemorySegment third = MemorySegment.ofAddress(list.address() + 2 * w.wrBytes()).reinterpret(w.wrBytes());
            assertThat(third.get(ADDRESS, S_NEXT).address()).as("relinked for a longer list").isEqualTo(list.address() + 3 * w.wrBytes());
        }
        // the SGE blocks of different WRs do not overlap
        long sg0 = first.get(ADDRESS, S_SG_LIST).address();
        long sg1 = second.get(ADDRESS, S_SG_LIST).address();
        assertThat(sg1 - sg0).isGreaterThanOrEqualTo(2 * SGE_BYTES);
    }

    /** Marshalling a warm list (select, fill, end it, relink) allocates nothing: no segment per WR or pointer. */
    @Test
    void marshallingAWarmListAllocatesNothing() {
        WorkRequests w = WorkRequests.forSend(arena, 1, 8);
        w.ensureRoom(4);
        SendWorkRequest[] wrs = new SendWorkRequest[4];
        for (int i = 0; i < 4; i++) {
            wrs[i] = new SendWorkRequest().wrId(i).opcode(WrOpcode.RDMA_WRITE).rdma(0x1000, 7).sg(new Sge(0x2000, 64, 9));
        }
        Runnable round = () -> {
            for (int i = 0; i < 4; i++) {
                w.select(i);
                w.fillSend(wrs[i], MemorySegment.NULL, MemorySegment.NULL, 0, MemorySegment.NULL);
            }
            w.terminate(3);
            w.relink(3);
        };
        for (int i = 0; i < 20_000; i++) {
            round.run();
        }
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory
                .getThreadMXBean();
        long before = mx.getCurrentThreadAllocatedBytes();
        int rounds = 50_000;
        for (int i = 0; i < rounds; i++) {
            round.run();
        }
        assertThat((mx.getCurrentThreadAllocatedBytes() - before) / rounds).as("bytes allocated per list of four").isLessThan(16);
    }

    @Test
    void aReceiveListIsOneCallThatSeesEveryWrInOrder() {
        WorkRequests w = WorkRequests.forRecv(arena, 1, 16);
        w.postRecvs(fakePost, queue, recvList(5)[0], "ibv_post_recv", "the queue was granted", "max_recv_wr");
        assertThat(CALLS).containsExactly(List.of(0L, 1L, 2L, 3L, 4L));
        w.postRecvs(fakePost, queue, recvList(1)[0], "ibv_post_recv", "the queue was granted", "max_recv_wr");
        assertThat(CALLS.get(1)).as("a single WR after a longer list: the list ends after it").containsExactly(0L);
        w.postRecvs(fakePost, queue, recvList(3)[0], "ibv_post_recv", "the queue was granted", "max_recv_wr");
        assertThat(CALLS.get(2)).containsExactly(0L, 1L, 2L);
    }

    /** The library's bad_wr is mapped back to the Java WR of that place; the ones before it count as posted. */
    @Test
    void theLibrarysBadWrNamesTheJavaWr() {
        WorkRequests w = WorkRequests.forRecv(arena, 1, 16);
        RecvWorkRequest[] wrs = recvList(4);
        failAt = 2;
        PostException e = catchThrowableOfType(PostException.class,
                () -> w.postRecvs(fakePost, queue, wrs[0], "ibv_post_recv", "the queue was granted", "max_recv_wr"));
        assertThat(e.errno()).isEqualTo(Errno.ENOMEM);
        assertThat(e.badRecvWr()).isSameAs(wrs[2]);
        assertThat(e.posted()).isEqualTo(2);
        assertThat(e.getMessage()).startsWith("ibv_post_recv: ");
        assertThat(CALLS).hasSize(1);
    }

    /** A WR refused before the call ends the list there: the library gets the ones before it, in one call. */
    @Test
    void aWrRefusedBeforeTheCallEndsTheListThere() {
        WorkRequests w = WorkRequests.forRecv(arena, 1, 16);
        RecvWorkRequest[] wrs = recvList(4);
        wrs[2].sg(new Sge(1, 1, 1), new Sge(2, 2, 2));
        PostException e = catchThrowableOfType(PostException.class,
                () -> w.postRecvs(fakePost, queue, wrs[0], "ibv_post_recv", "the queue was granted", "max_recv_wr"));
        assertThat(e.errno()).isEqualTo(Errno.EINVAL);
        assertThat(e.badRecvWr()).isSameAs(wrs[2]);
        assertThat(e.posted()).isEqualTo(2);
        assertThat(CALLS).containsExactly(List.of(0L, 1L));

        CALLS.clear();
        PostException first = catchThrowableOfType(PostException.class,
                () -> w.postRecvs(fakePost, queue, wrs[2], "ibv_post_recv", "the queue was granted", "max_recv_wr"));
        assertThat(first.getMessage()).isEqualTo("ibv_post_recv: 2 SGEs, the queue was granted 1 (EINVAL)");
        assertThat(CALLS).as("nothing to post: no call").isEmpty();
    }

    @Test
    void aCyclicListIsRefusedWithoutACall() {
        WorkRequests w = WorkRequests.forRecv(arena, 1, 16);
        RecvWorkRequest[] wrs = recvList(3);
        wrs[2].next(wrs[1]);
        PostException e = catchThrowableOfType(PostException.class,
                () -> w.postRecvs(fakePost, queue, wrs[0], "ibv_post_srq_recv", "the SRQ takes", "max_wr"));
        assertThat(e.errno()).isEqualTo(Errno.EINVAL);
        assertThat(e.posted()).isZero();
        assertThat(e.badRecvWr()).isSameAs(wrs[0]);
        assertThat(CALLS).isEmpty();
        assertThat(w.room()).as("no room grown for it").isEqualTo(1);
    }

    /** More WRs than the queue holds: its depth's worth go in one call, then ENOMEM at the first past it. */
    @Test
    void aListLongerThanTheQueueFailsPastItsDepth() {
        WorkRequests w = WorkRequests.forRecv(arena, 1, 4);
        RecvWorkRequest[] wrs = recvList(6);
        PostException e = catchThrowableOfType(PostException.class,
                () -> w.postRecvs(fakePost, queue, wrs[0], "ibv_post_recv", "the queue was granted", "max_recv_wr"));
        assertThat(e.errno()).isEqualTo(Errno.ENOMEM);
        assertThat(e.posted()).isEqualTo(4);
        assertThat(e.badRecvWr()).isSameAs(wrs[4]);
        assertThat(e.getMessage()).contains("max_recv_wr 4");
        assertThat(CALLS).containsExactly(List.of(0L, 1L, 2L, 3L));
        assertThat(w.room()).isEqualTo(4);
    }
}
