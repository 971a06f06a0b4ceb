package org.jrdma.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jrdma.testkit.VerbsAssertions.assertFails;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jrdma.testkit.Loopback.Endpoint;
import org.jrdma.testkit.Loopback.Options;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Flush semantics with every opcode in the queues (REL-18, REL-19; ROCEV2-FACTS §3.5), beyond
 * the SEND-only cases of {@link QpPostingSuite}: after ERR — requested, or caused by a remote
 * error — every outstanding SQ and RQ WR completes WR_FLUSH_ERR exactly once and in order,
 * unsignaled ones too; a beacon WR posted after ERR (one send, one receive) flushes after them;
 * a WR of any opcode posted before RTS is refused with EINVAL; a full SQ of mixed opcodes
 * refuses one more with ENOMEM.
 */
public abstract class FlushSuite extends RdmaSuiteBase {
    /** For a provider's subclass, which supplies the fixture. */
    public FlushSuite() {
    }

    private static final List<WrOpcode> MIXED = List.of(WrOpcode.RDMA_WRITE, WrOpcode.RDMA_READ,
            WrOpcode.ATOMIC_CMP_AND_SWP, WrOpcode.SEND_WITH_IMM, WrOpcode.ATOMIC_FETCH_AND_ADD,
            WrOpcode.RDMA_WRITE_WITH_IMM, WrOpcode.SEND, WrOpcode.RDMA_READ, WrOpcode.RDMA_WRITE);

    /**
     * B posts no receive, so A's head SEND meets RNR NAKs for ever (rnr_retry 7) and nothing
     * behind it may execute; then A is moved to ERR. B's memory shows that no WRITE or atomic
     * behind the stalled SEND was executed, and B stays in RTS.
     */
    @Test
    void mixedOpcodesBehindAStalledSendFlushInOrderWhenTheQpIsMovedToErr() {
        Loopback lb = loopback(atomicCapable());
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        b.recvMr.segment().fill(CANARY);
        List<Long> sendIds = new ArrayList<>();
        a.qp.postSend(send(200, SendFlags.SIGNALED, Sge.of(a.sendMr, 0, 64)));
        sendIds.add(200L);
        postMixed(a, b, 201, sendIds);
        List<Long> recvIds = postReceives(a, 100, 4);
        assertNoCompletion(a.sendCq, "A's send CQ while B has no receive (RNR retry 7)");

        a.qp.modify(new QpAttr().state(QpState.ERR));
        assertFlushed(awaitCompletions(a.sendCq, sendIds.size(), "every SQ WR, unsignaled ones too"), sendIds, a);
        assertFlushed(awaitCompletions(a.recvCq, recvIds.size(), "every RQ WR"), recvIds, a);
        assertNoCompletion(a.sendCq, "A's send CQ after each WR flushed once");
        assertNoCompletion(a.recvCq, "A's receive CQ after each WR flushed once");
        Payload.assertFilledWith(b.recvMr.segment(), CANARY, "B's memory: nothing behind the stalled SEND executed");
        assertState(b.qp, QpState.RTS, "B");
    }

    /**
     * A bad-rkey WRITE at the head (class C: both QPs to ERR): it completes REM_ACCESS_ERR and
     * everything behind it WR_FLUSH_ERR in order, on both sides' receive queues too; then one
     * beacon send and one beacon receive per side (REL-19: the Ceph/iWARP drain) flush last.
     */
    @Test
    void aRemoteErrorFlushesEverythingBehindItAndBeaconsPostedAfterwardsFlushLast() {
        assumeOpcode(WrOpcode.RDMA_WRITE);
        Loopback lb = loopback(atomicCapable());
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        b.recvMr.segment().fill(CANARY);
        List<Long> aRecv = postReceives(a, 100, 3);
        List<Long> bRecv = postReceives(b, 300, 3);
        a.qp.postSend(write(200, 0, Sge.of(a.sendMr, 0, 64), b.recvMr.addr(), staleRkey(b.pd)));
        List<Long> flushed = new ArrayList<>();
        postMixed(a, b, 201, flushed);

        WorkCompletion failed = awaitCompletion(a.sendCq, "the unsignaled bad-rkey WRITE");
        assertWc(failed, 200, WcStatus.REM_ACCESS_ERR, a.qp);
        assertFlushed(awaitCompletions(a.sendCq, flushed.size(), "the WRs behind it"), flushed, a);
        assertFlushed(awaitCompletions(a.recvCq, aRecv.size(), "A's receives"), aRecv, a);
        awaitState(a.qp, QpState.ERR, "A");
        awaitState(b.qp, QpState.ERR, "B");
        assertFlushed(awaitCompletions(b.recvCq, bRecv.size(), "B's receives"), bRecv, b);

        for (Endpoint e : List.of(a, b)) {
            e.qp.postSend(send(900, 0, Sge.of(e.sendMr, 0, 64)));
            assertWc(awaitCompletion(e.sendCq, "the unsignaled send beacon"), 900, WcStatus.WR_FLUSH_ERR, e.qp);
            if (fx.supports(Feature.FLUSH_RECV_POSTED_IN_ERR)) { // rxe 6.1 leaves it queued
                e.qp.postRecv(recv(901, Sge.of(e.recvMr, 0, 64)));
                assertWc(awaitCompletion(e.recvCq, "the receive beacon"), 901, WcStatus.WR_FLUSH_ERR, e.qp);
            }
        }
        for (Endpoint e : List.of(a, b)) {
            assertNoCompletion(e.sendCq, "the send CQ after the beacon");
            assertNoCompletion(e.recvCq, "the receive CQ after the beacon");
        }
        Payload.assertFilledWith(b.recvMr.segment(), CANARY, "B's memory");
    }

    /** REL-18 and §3.5: WRs of every opcode posted while in ERR flush in order. */
    @Test
    void wrsOfEveryOpcodePostedInErrFlushInOrder() {
        Loopback lb = loopback(atomicCapable());
        Endpoint a = lb.a();
        a.qp.modify(new QpAttr().state(QpState.ERR));
        List<Long> ids = new ArrayList<>();
        postMixed(a, lb.b(), 500, ids);
        assertFlushed(awaitCompletions(a.sendCq, ids.size(), "WRs posted in ERR"), ids, a);
        assertNoCompletion(a.sendCq, "A's send CQ after the flush");
    }

    static Stream<Arguments> statesAndOpcodes() {
        return Stream.of(QpState.RESET, QpState.INIT, QpState.RTR).flatMap(s -> Stream.of(WrOpcode.SEND,
                WrOpcode.SEND_WITH_IMM, WrOpcode.RDMA_WRITE, WrOpcode.RDMA_WRITE_WITH_IMM, WrOpcode.RDMA_READ,
                WrOpcode.ATOMIC_CMP_AND_SWP, WrOpcode.ATOMIC_FETCH_AND_ADD).map(op -> Arguments.of(s, op)));
    }

    /** rdma-core post_sq_state_bad_flow for every opcode: B is held in RESET, INIT or RTR. */
    @ParameterizedTest(name = "{1} in {0}")
    @MethodSource("statesAndOpcodes")
    void postingAnyOpcodeBeforeRtsIsRefusedWithEinval(QpState state, WrOpcode op) {
        assumeOpcode(op);
        Loopback lb = loopback(atomicCapable().withPeerState(state));
        Endpoint b = lb.b();
        assertFails(Errno.EINVAL, () -> b.qp.postSend(anyOp(op, 1, SendFlags.SIGNALED, b, lb.a())));
        assertEmptyNow(b.sendCq, "B's send CQ after a refused post");
        assertState(b.qp, state, "B");
    }

    /** An SQ held full behind a stalled SEND, with every opcode in it, refuses one more WR. */
    @Test
    void aFullSendQueueOfMixedOpcodesRefusesOneMoreWithEnomem() {
        assumeSupported(Feature.QUEUE_FULL_AT_GRANTED_CAP);
        Loopback lb = loopback(atomicCapable().withCap(new QpCap(16, 16, 1, 1, 0)));
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        int depth = a.qp.cap().maxSendWr();
        a.qp.postSend(send(0, SendFlags.SIGNALED, Sge.of(a.sendMr, 0, 64)));
        List<WrOpcode> ops = supported(MIXED);
        for (int i = 1; i < depth; i++) {
            a.qp.postSend(anyOp(ops.get(i % ops.size()), i, i % 2 == 0 ? SendFlags.SIGNALED : 0, a, b));
        }
        WrOpcode last = ops.get(depth % ops.size());
        assertFails(Errno.ENOMEM, () -> a.qp.postSend(anyOp(last, depth, SendFlags.SIGNALED, a, b)));
        assertState(a.qp, QpState.RTS, "A");
        a.qp.modify(new QpAttr().state(QpState.ERR));
        List<Long> all = new ArrayList<>();
        for (long i = 0; i < depth; i++) {
            all.add(i);
        }
        assertFlushed(awaitCompletions(a.sendCq, depth, "the full SQ"), all, a);
    }

    // ---- helpers ------------------------------------------------------------------------------

    private static Options atomicCapable() {
        return Options.defaults().withQpAccess(ALL_REMOTE).withMrAccess(ALL_REMOTE);
    }

    private List<WrOpcode> supported(List<WrOpcode> ops) {
        return ops.stream().filter(this::supportsOpcode).toList();
    }

    /** One WR of each supported opcode of {@link #MIXED}, every other one unsignaled; records their wr_ids. */
    private void postMixed(Endpoint self, Endpoint peer, long firstId, List<Long> ids) {
        long id = firstId;
        for (WrOpcode op : supported(MIXED)) {
            self.qp.postSend(anyOp(op, id, id % 2 == 0 ? SendFlags.SIGNALED : 0, self, peer));
            ids.add(id++);
        }
    }

    private static List<Long> postReceives(Endpoint e, long firstId, int n) {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            e.qp.postRecv(recv(firstId + i, Sge.of(e.recvMr, 64L * i, 64)));
            ids.add(firstId + i);
        }
        return ids;
    }

    private static void assertFlushed(List<WorkCompletion> wcs, List<Long> ids, Endpoint e) {
        assertThat(wcs.stream().map(wc -> wc.wrId).toList()).as("wr_ids in completion order").isEqualTo(ids);
        for (int i = 0; i < wcs.size(); i++) {
            assertWc(wcs.get(i), ids.get(i), WcStatus.WR_FLUSH_ERR, e.qp);
        }
    }
}
