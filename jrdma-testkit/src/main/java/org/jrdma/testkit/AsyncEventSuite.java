package org.jrdma.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jrdma.testkit.VerbsAssertions.assertFails;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.Set;
import org.jrdma.testkit.Loopback.Endpoint;
import org.jrdma.testkit.Loopback.Options;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AsyncEvent;
import org.jrdma.verbs.AsyncEventType;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Asynchronous events (ibv_get_async_event.3): a responder QP that a remote error moves to ERR
 * raises a QP error event naming it — IBA's "local access violation" QP_ACCESS_ERR for an R_Key
 * violation (newer rxe raises exactly that), "invalid request" QP_REQ_ERR for a missing QP
 * right; QP_FATAL is accepted for either — once, to be acknowledged with ack(). An error the
 * requester learns from a completion raises no event; neither does a modify to ERR; COMM_EST
 * marks the first packet reaching a QP still in RTR; a responder CQ overflow (REL-26, class G)
 * raises CQ_ERR or a QP error. getAsyncEvent with nothing pending times out with ETIMEDOUT.
 *
 * <p>Events are awaited after what causes them is visible (a QP state, a completion), so a
 * provider whose engine the caller drives need not progress inside getAsyncEvent: the event
 * must be queued by the time its cause can be observed.
 */
public abstract class AsyncEventSuite extends RdmaSuiteBase {
    /** For a provider's subclass, which supplies the fixture. */
    public AsyncEventSuite() {
    }

    private static final Set<AsyncEventType> QP_ERRORS =
            Set.of(AsyncEventType.QP_ACCESS_ERR, AsyncEventType.QP_REQ_ERR, AsyncEventType.QP_FATAL);

    /** Skips every test of the suite unless the provider has {@link Feature#ASYNC_EVENTS}. */
    @BeforeEach
    protected final void needsAsyncEvents() {
        assumeSupported(Feature.ASYNC_EVENTS);
    }

    @Test
    void getAsyncEventTimesOutWithEtimedoutWhenNothingHappened() {
        Duration wait = Duration.ofMillis(50);
        long start = System.nanoTime();
        assertFails(Errno.ETIMEDOUT, () -> context.getAsyncEvent(wait));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("time getAsyncEvent waited")
                .isGreaterThanOrEqualTo(wait.multipliedBy(9).dividedBy(10));
    }

    /** R_Key violation at the responder (class C): B goes to ERR and says so, once. */
    @Test
    void responderMovedToErrByABadRkeyRaisesOneQpErrorEventNamingIt() {
        assumeSupported(Feature.QP_ERROR_EVENTS);
        assumeOpcode(WrOpcode.RDMA_WRITE);
        Loopback lb = loopback(Options.defaults());
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        a.qp.postSend(write(1, SendFlags.SIGNALED, Sge.of(a.sendMr, 0, 64), b.recvMr.addr(), staleRkey(b.pd)));
        assertWc(awaitCompletion(a.sendCq, "the bad-rkey WRITE"), 1, WcStatus.REM_ACCESS_ERR, a.qp);
        awaitState(b.qp, QpState.ERR, "the responder");
        assertQpErrorEvent(b, AsyncEventType.QP_ACCESS_ERR);
        assertNoEvent(b.context, "a second event");
    }

    /** A WRITE to a QP without REMOTE_WRITE (class C invalid request): QP_REQ_ERR or another QP error. */
    @Test
    void responderMovedToErrByAnInvalidRequestRaisesOneQpErrorEventNamingIt() {
        assumeSupported(Feature.QP_ERROR_EVENTS);
        assumeOpcode(WrOpcode.RDMA_WRITE);
        Loopback lb = loopback(Options.defaults().withQpAccess(AccessFlags.LOCAL_WRITE));
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        a.qp.postSend(write(1, SendFlags.SIGNALED, Sge.of(a.sendMr, 0, 64), b.recvMr.addr(), b.recvMr.rkey()));
        assertWc(awaitCompletion(a.sendCq, "the WRITE to a QP without REMOTE_WRITE"), 1, WcStatus.REM_INV_REQ_ERR, a.qp);
        awaitState(b.qp, QpState.ERR, "the responder");
        assertQpErrorEvent(b, AsyncEventType.QP_REQ_ERR);
        assertNoEvent(b.context, "a second event");
    }

    /** The requester learns of its error from the completion: its own context gets no event. */
    @Test
    void requesterErrorReportedInACompletionRaisesNoEvent() {
        assumeSupported(Feature.QP_ERROR_EVENTS);
        assumeOpcode(WrOpcode.RDMA_WRITE);
        Loopback lb = loopback(Options.defaults());
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        assumeTrue(a.context != b.context, "the fixture puts the two QPs of a loopback in different contexts");
        a.qp.postSend(write(1, SendFlags.SIGNALED, Sge.of(a.sendMr, 0, 64), b.recvMr.addr(), staleRkey(b.pd)));
        assertWc(awaitCompletion(a.sendCq, "the bad-rkey WRITE"), 1, WcStatus.REM_ACCESS_ERR, a.qp);
        awaitState(a.qp, QpState.ERR, "the requester");
        assertNoEvent(a.context, "an event on the requester's context");
        awaitState(b.qp, QpState.ERR, "the responder");
        assertQpErrorEvent(b, AsyncEventType.QP_ACCESS_ERR);
    }

    /** A modify to ERR is the caller's own doing: no event. The QP closes right after. */
    @Test
    void modifyToErrRaisesNoEvent() {
        Loopback lb = loopback(Options.defaults());
        Endpoint a = lb.a();
        a.qp.modify(new QpAttr().state(QpState.ERR));
        assertNoEvent(a.context, "an event after a requested move to ERR");
    }

    /** COMM_EST: the first packet reaches B while B is still in RTR; B answers it from RTR. */
    @Test
    void firstPacketReachingAQpInRtrRaisesCommEst() {
        assumeSupported(Feature.COMM_EST);
        Loopback lb = loopback(Options.defaults().withPeerState(QpState.RTR));
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        b.qp.postRecv(recv(1, Sge.of(b.recvMr, 0, 64)));
        a.qp.postSend(send(2, SendFlags.SIGNALED, Sge.of(a.sendMr, 0, 64)));
        assertWc(awaitCompletion(b.recvCq, "the SEND B received in RTR"), 1, WcStatus.SUCCESS, b.qp);
        assertWc(awaitCompletion(a.sendCq, "the SEND, acknowledged from RTR"), 2, WcStatus.SUCCESS, a.qp);
        AsyncEvent e = b.context.getAsyncEvent(fx.deadline());
        try {
            assertThat(e.type()).as("event type").isEqualTo(AsyncEventType.COMM_EST);
            assertThat(e.qp()).as("the QP the event names").isSameAs(b.qp);
        } finally {
            e.ack();
        }
        assertNoEvent(b.context, "a second COMM_EST");
    }

    /**
     * REL-26 (class G): more receive completions than B's receive CQ holds, none polled. B's QP
     * goes to ERR and B's context reports CQ_ERR for that CQ or a QP error for that QP.
     */
    @Test
    void receiveCqOverflowRaisesAnErrorEventAndMovesTheQpToErr() {
        Loopback lb = loopback(Options.defaults().withCqEntries(8).withCap(new QpCap(64, 64, 1, 1, 0)));
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        int capacity = b.recvCq.capacity();
        assumeTrue(capacity < Math.min(b.qp.cap().maxRecvWr(), a.qp.cap().maxSendWr()),
                () -> "the receive CQ (" + capacity + " entries) fills before the queues do");
        for (int i = 0; i <= capacity; i++) {
            b.qp.postRecv(recv(i, Sge.of(b.recvMr, 64L * i, 64)));
            a.qp.postSend(send(i, 0, Sge.of(a.sendMr, 0, 64)));
        }
        awaitState(b.qp, QpState.ERR, "the QP whose receive CQ overflowed");
        AsyncEvent e = b.context.getAsyncEvent(fx.deadline());
        try {
            boolean cqErr = e.type() == AsyncEventType.CQ_ERR && e.cq() == b.recvCq;
            boolean qpErr = QP_ERRORS.contains(e.type()) && e.qp() == b.qp;
            assertThat(cqErr || qpErr).as("event %s (cq %s, qp %s): CQ_ERR of B's receive CQ or a QP error of B's QP",
                    e.type(), e.cq(), e.qp()).isTrue();
        } finally {
            e.ack();
        }
    }

    // ---- helpers ------------------------------------------------------------------------------

    /** The next event of {@code e}'s context is a QP error naming e's QP ({@code preferred} or another). */
    private void assertQpErrorEvent(Endpoint e, AsyncEventType preferred) {
        AsyncEvent event = e.context.getAsyncEvent(fx.deadline());
        try {
            assertThat(event.type()).as("event type (IBA: %s)", preferred).isIn(QP_ERRORS);
            assertThat(event.qp()).as("the QP the event names").isSameAs(e.qp);
        } finally {
            event.ack();
        }
    }

    private void assertNoEvent(Context c, String what) {
        try {
            AsyncEvent e = c.getAsyncEvent(fx.settleTime());
            e.ack();
            throw new AssertionError("unexpected " + e.type() + " (qp " + e.qp() + ", cq " + e.cq() + ", srq "
                    + e.srq() + "): " + what);
        } catch (VerbsException expected) {
            assertThat(expected.errno()).as("errno of \"%s\"", expected.getMessage()).isEqualTo(Errno.ETIMEDOUT);
        }
    }
}
