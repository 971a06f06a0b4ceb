package org.jrdma.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.jrdma.testkit.Loopback.Endpoint;
import org.jrdma.testkit.Loopback.Options;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Transport retries (REL-12, REL-13, REL-14, REL-20; ROCEV2-FACTS §2.2, §2.5, §4.4 steps 5–6):
 * a peer that never answers — its QP in RESET, INIT or ERR, which drop requests silently (§1.10)
 * — costs the requester retry_cnt + 1 local ACK timeouts of 4.096 µs × 2^timeout, then the head
 * WR completes RETRY_EXC_ERR (REM_OP_ERR from a peer that NAKs instead), the rest of the SQ
 * flushes (unsignaled WRs too) and the QP is in ERR: never a hang.
 *
 * <p>Timing: the time to the error must lie within −10 % / +100 % of (retry_cnt + 1) × timeout,
 * with timeouts of 16.8–67 ms so that a test stays well under a second.
 */
public abstract class RetrySuite extends RdmaSuiteBase {
    /** For a provider's subclass, which supplies the fixture. */
    public RetrySuite() {
    }

    /** 4.19 ms per try: quick failures where only the outcome is checked. */
    private static final int QUICK_TIMEOUT = 10;

    static Stream<Arguments> deadPeers() {
        return Stream.of(QpState.RESET, QpState.INIT, QpState.ERR).flatMap(s -> Stream.of(WrOpcode.SEND,
                WrOpcode.RDMA_WRITE, WrOpcode.RDMA_READ).map(op -> Arguments.of(s, op)));
    }

    /** REL-20, rdma-unit-test RemoteRcQpStateTest: a peer in RESET, INIT or ERR never answers. */
    @ParameterizedTest(name = "{1} to a peer in {0}")
    @MethodSource("deadPeers")
    void requestsToAPeerThatIsNotReadyFailWithRetryExceededAndFlushTheRest(QpState peerState, WrOpcode op) {
        assumeOpcode(op);
        Options o = Options.defaults().withRetry(QUICK_TIMEOUT, 1);
        Loopback lb = loopback(peerState == QpState.ERR ? o : o.withPeerState(peerState));
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        if (peerState == QpState.ERR) {
            b.qp.modify(new QpAttr().state(QpState.ERR));
        }
        a.qp.postRecv(recv(50, Sge.of(a.recvMr, 0, 64)));
        a.qp.postSend(anyOp(op, 1, SendFlags.SIGNALED, a, b));
        a.qp.postSend(send(2, 0, Sge.of(a.sendMr, 0, 64)));
        a.qp.postSend(send(3, SendFlags.SIGNALED, Sge.of(a.sendMr, 0, 64)));
        List<WorkCompletion> wcs = awaitCompletions(a.sendCq, 3, "the WR to a dead peer and the two behind it");
        assertThat(wcs.getFirst().status).as("status of %s", wcs.getFirst())
                .isIn(WcStatus.RETRY_EXC_ERR, WcStatus.REM_OP_ERR);
        assertWc(wcs.get(1), 2, WcStatus.WR_FLUSH_ERR, a.qp);
        assertWc(wcs.get(2), 3, WcStatus.WR_FLUSH_ERR, a.qp);
        assertWc(awaitCompletion(a.recvCq, "A's receive"), 50, WcStatus.WR_FLUSH_ERR, a.qp);
        awaitState(a.qp, QpState.ERR, "the requester");
        assertState(b.qp, peerState, "the peer");
    }

    /** REL-12: the whole budget is (retry_cnt + 1) × 4.096 µs × 2^timeout. */
    @ParameterizedTest(name = "timeout {0}, retry_cnt {1}")
    @CsvSource({"12, 3", "13, 1", "13, 2", "14, 1"})
    void timeToRetryExceededIsRetryCntPlusOneLocalAckTimeouts(int timeout, int retryCnt) {
        assertRetryBudget(timeout, retryCnt, retryCnt + 1);
    }

    /**
     * REL-13: jrdma's choice, declared by {@link Feature#RETRY_CNT_7_FINITE}: retry_cnt 7 is
     * seven retries, eight tries (rxe: infinite). rnr_retry 7 stays infinite ({@link RnrSuite}).
     */
    @Test
    void retryCnt7IsSevenRetriesNotInfinite() {
        assumeSupported(Feature.RETRY_CNT_7_FINITE);
        assertRetryBudget(12, 7, 8);
    }

    /**
     * REL-14: timeout 0 means no retransmit timer (ROCEV2-FACTS §2.2). A provider may refuse it
     * at RTS (EINVAL, "refuse unless explicitly enabled"); if it takes it, the WR to a silent
     * peer must not time out, and moving the QP to ERR flushes it.
     */
    @Test
    void timeoutZeroIsRefusedOrNeverTimesOut() {
        Options o = Options.defaults().withRetry(0, 1).withPeerState(QpState.INIT);
        Loopback lb;
        try {
            lb = loopback(o);
        } catch (VerbsException refused) {
            assertThat(refused.errno()).as("errno of \"%s\"", refused.getMessage()).isEqualTo(Errno.EINVAL);
            return;
        }
        Endpoint a = lb.a();
        a.qp.postSend(send(1, SendFlags.SIGNALED, Sge.of(a.sendMr, 0, 64)));
        assertNoCompletion(a.sendCq, "A's send CQ with no retransmit timer");
        assertState(a.qp, QpState.RTS, "A");
        a.qp.modify(new QpAttr().state(QpState.ERR));
        assertWc(awaitCompletion(a.sendCq, "the SEND, flushed"), 1, WcStatus.WR_FLUSH_ERR, a.qp);
    }

    /**
     * A SEND to a peer held in INIT, timed from just before the post to the poll of its error
     * completion: at least {@code tries} local ACK timeouts less 10 % — giving up early would
     * break the protocol — and at most three times that plus 250 ms, a bound that only catches
     * a timer that does not fire (the machines running this are shared and noisy). The WR
     * behind it flushes.
     */
    private void assertRetryBudget(int timeout, int retryCnt, int tries) {
        Loopback lb = loopback(Options.defaults().withRetry(timeout, retryCnt).withPeerState(QpState.INIT));
        Endpoint a = lb.a();
        Duration budget = ackTimeout(timeout).multipliedBy(tries);
        long start = System.nanoTime();
        a.qp.postSend(send(1, SendFlags.SIGNALED, Sge.of(a.sendMr, 0, 64)));
        a.qp.postSend(send(2, 0, Sge.of(a.sendMr, 0, 64)));
        Timed t = awaitTimed(a.sendCq, start, "the SEND to a peer in INIT");
        assertWc(t.wc(), 1, WcStatus.RETRY_EXC_ERR, a.qp);
        assertThat(t.elapsed()).as("time to RETRY_EXC_ERR: %d tries of %s", tries, ackTimeout(timeout))
                .isGreaterThanOrEqualTo(budget.multipliedBy(9).dividedBy(10))
                .isLessThanOrEqualTo(budget.multipliedBy(3).plusMillis(250));
        assertWc(awaitCompletion(a.sendCq, "the unsignaled SEND behind it"), 2, WcStatus.WR_FLUSH_ERR, a.qp);
        awaitState(a.qp, QpState.ERR, "the requester");
    }
}
