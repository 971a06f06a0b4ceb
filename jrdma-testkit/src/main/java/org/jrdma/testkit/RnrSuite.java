package org.jrdma.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.List;
import org.jrdma.testkit.Loopback.Endpoint;
import org.jrdma.testkit.Loopback.Options;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Receiver-not-ready (REL-15; ROCEV2-FACTS §2.3, §2.5, §4.4 step 7): a SEND that finds no
 * receive is RNR-NAKed with the responder's min_rnr_timer, and the requester waits that long
 * before each retry. rnr_retry n (0..6) allows exactly n retries, then RNR_RETRY_EXC_ERR and ERR
 * for the requester only (RNR is class B: the responder stays in RTS); rnr_retry 7 retries for
 * ever and succeeds once a receive is posted.
 *
 * <p>Timing: the retries are counted by time, as bounds. n retries take at least n timers, and
 * with a long timer (code 28, 163.84 ms) less than n + 1 of them: the slack for n + 1 round trips,
 * timer lateness and polling is one timer, 164 ms (82 ms proved too little on a loaded two-core
 * machine). No sleep: the clock starts just before the post.
 */
public abstract class RnrSuite extends RdmaSuiteBase {
    /** For a provider's subclass, which supplies the fixture. */
    public RnrSuite() {
    }

    private static final int LONG_TIMER = 28;

    /** REL-15 (a): exactly rnr_retry retries, then RNR_RETRY_EXC_ERR; the SQ behind it flushes. */
    @ParameterizedTest(name = "rnr_retry {0}")
    @ValueSource(ints = {0, 1, 2, 3, 4, 5, 6})
    void withoutAReceiveTheSendFailsAfterExactlyRnrRetryWaits(int rnrRetry) {
        Loopback lb = loopback(Options.defaults().withRnr(rnrRetry, LONG_TIMER));
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        Duration timer = rnrTimer(LONG_TIMER);
        long start = System.nanoTime();
        a.qp.postSend(send(1, SendFlags.SIGNALED, Sge.of(a.sendMr, 0, 64)));
        a.qp.postSend(send(2, 0, Sge.of(a.sendMr, 0, 64)));
        Timed t = awaitTimed(a.sendCq, start, "the SEND nobody receives");
        assertWc(t.wc(), 1, WcStatus.RNR_RETRY_EXC_ERR, a.qp);
        assertThat(t.elapsed()).as("time for %d RNR waits of %s", rnrRetry, timer)
                .isGreaterThanOrEqualTo(timer.multipliedBy(rnrRetry))
                .isLessThan(timer.multipliedBy(rnrRetry + 1));
        assertWc(awaitCompletion(a.sendCq, "the unsignaled SEND behind it"), 2, WcStatus.WR_FLUSH_ERR, a.qp);
        awaitState(a.qp, QpState.ERR, "the requester");
        assertState(b.qp, QpState.RTS, "the responder (RNR is class B)");
    }

    /** REL-15 (b): no retry comes before the timer, whatever the code (the rxe RNR-timer fix). */
    @ParameterizedTest(name = "min_rnr_timer code {0}")
    @ValueSource(ints = {12, 14, 18})
    void noRetryComesBeforeTheRnrTimer(int code) {
        int retries = 6;
        Loopback lb = loopback(Options.defaults().withRnr(retries, code));
        Endpoint a = lb.a();
        long start = System.nanoTime();
        a.qp.postSend(send(1, SendFlags.SIGNALED, Sge.of(a.sendMr, 0, 64)));
        Timed t = awaitTimed(a.sendCq, start, "the SEND nobody receives");
        assertWc(t.wc(), 1, WcStatus.RNR_RETRY_EXC_ERR, a.qp);
        assertThat(t.elapsed()).as("time for %d RNR waits of code %d", retries, code)
                .isGreaterThanOrEqualTo(rnrTimer(code).multipliedBy(retries));
    }

    /**
     * REL-15 (c), rdma-unit-test RnrNackTest: 16 receives, 32 SENDs, 16 more receives once the
     * first 16 have completed (the late post is triggered by that condition, not by a sleep).
     * With rnr_retry 7 all 32 complete on both sides, in order, byte-exact.
     */
    @Test
    void receivesPostedLateAreFilledWithRnrRetry7AndEverythingCompletesInOrder() {
        final int half = 16;
        final int size = 256;
        Loopback lb = loopback(Options.defaults().withRnr(7, 12).withCap(new QpCap(2 * half, 2 * half, 1, 1, 0)));
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        for (int i = 0; i < 2 * half; i++) {
            Payload.fill(a.sendMr.segment().asSlice((long) i * size, size), i);
        }
        for (int i = 0; i < half; i++) {
            b.qp.postRecv(recv(i, Sge.of(b.recvMr, (long) i * size, size)));
        }
        for (int i = 0; i < 2 * half; i++) {
            a.qp.postSend(send(i, SendFlags.SIGNALED, Sge.of(a.sendMr, (long) i * size, size)));
        }
        List<WorkCompletion> first = awaitCompletions(b.recvCq, half, "the first 16 receives");
        for (int i = half; i < 2 * half; i++) {
            b.qp.postRecv(recv(i, Sge.of(b.recvMr, (long) i * size, size)));
        }
        List<WorkCompletion> second = awaitCompletions(b.recvCq, half, "the 16 receives posted late");
        List<WorkCompletion> sends = awaitCompletions(a.sendCq, 2 * half, "all 32 SENDs");
        for (int i = 0; i < 2 * half; i++) {
            assertWc(sends.get(i), i, WcStatus.SUCCESS, a.qp);
            WorkCompletion r = i < half ? first.get(i) : second.get(i - half);
            assertWc(r, i, WcStatus.SUCCESS, b.qp);
            assertThat(r.byteLen).isEqualTo(size);
        }
        Payload.assertSameBytes(b.recvMr.segment().asSlice(0, 2L * half * size),
                a.sendMr.segment().asSlice(0, 2L * half * size), "32 messages");
    }

    /**
     * REL-13 (rnr_retry 7 is infinite), rdma-unit-test SendRnrInfiniteRetries: with rnr_retry 7 and a 10 µs timer the SEND is
     * retried thousands of times during the settle period and never completes; a receive
     * posted then lets it through.
     */
    @Test
    void rnrRetry7RetriesForEverUntilAReceiveIsPosted() {
        Loopback lb = loopback(Options.defaults().withRnr(7, 1));
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        Payload.fill(a.sendMr.segment().asSlice(0, 64), 7);
        a.qp.postSend(send(1, SendFlags.SIGNALED, Sge.of(a.sendMr, 0, 64)));
        assertNoCompletion(a.sendCq, "A's send CQ while B has no receive (rnr_retry 7)");
        assertState(a.qp, QpState.RTS, "A");
        b.qp.postRecv(recv(2, Sge.of(b.recvMr, 0, 64)));
        assertWc(awaitCompletion(a.sendCq, "the SEND once a receive is there"), 1, WcStatus.SUCCESS, a.qp);
        assertWc(awaitCompletion(b.recvCq, "the receive"), 2, WcStatus.SUCCESS, b.qp);
        Payload.assertSameBytes(b.recvMr.segment().asSlice(0, 64), a.sendMr.segment().asSlice(0, 64), "the SEND");
    }

    /**
     * A WRITE_WITH_IMM consumes a receive (ROCEV2-FACTS §1.4), so without one it is RNR-NAKed
     * like a SEND — and the data of a single-packet one (RDMA_WRITE_ONLY_WITH_IMMEDIATE) must not
     * land before it is accepted (CHK_RESOURCE precedes EXECUTE, §4.2). Only the last packet of a
     * longer one needs the receive, so its earlier packets may land first: not tested.
     */
    @Test
    void writeWithImmWaitsForAReceiveAndItsDataLandsOnlyThen() {
        assumeOpcode(WrOpcode.RDMA_WRITE_WITH_IMM);
        Loopback lb = loopback(Options.defaults().withRnr(7, 1));
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        MemorySegment data = a.sendMr.segment().asSlice(0, 200);
        Payload.fill(data, 8);
        b.recvMr.segment().fill(CANARY);
        a.qp.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.RDMA_WRITE_WITH_IMM).flags(SendFlags.SIGNALED)
                .imm(IMM).sg(Sge.of(a.sendMr, 0, 200)).rdma(b.recvMr.addr(), b.recvMr.rkey()));
        assertNoCompletion(a.sendCq, "A's send CQ while B has no receive");
        Payload.assertFilledWith(b.recvMr.segment(), CANARY, "B's memory before a receive is posted");
        b.qp.postRecv(recv(2, null));
        assertWc(awaitCompletion(a.sendCq, "the WRITE_WITH_IMM"), 1, WcStatus.SUCCESS, a.qp);
        WorkCompletion r = awaitCompletion(b.recvCq, "its receive");
        assertWc(r, 2, WcStatus.SUCCESS, b.qp);
        assertThat(r.opcode).isEqualTo(WcOpcode.RECV_RDMA_WITH_IMM);
        assertThat(r.byteLen).isEqualTo(200);
        Payload.assertSameBytes(b.recvMr.segment().asSlice(0, 200), data, "the WRITE_WITH_IMM's data");
    }
}
