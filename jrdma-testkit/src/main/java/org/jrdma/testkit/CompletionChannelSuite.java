package org.jrdma.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jrdma.testkit.VerbsAssertions.assertCompletion;
import static org.jrdma.testkit.VerbsAssertions.assertFails;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import org.jrdma.testkit.Loopback.Endpoint;
import org.jrdma.testkit.Loopback.Options;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * CQ events (ibv_req_notify_cq, ibv_get_cq_event, ibv_ack_cq_events): an armed CQ raises one
 * event for its next completion, an unarmed one none, and a solicited-only arm waits for a
 * SOLICITED message or an error. An event is raised when the completion is added, whether or
 * not it was polled yet, so the tests poll the completion first and then expect the event to
 * be pending: no timing assumption, and a caller-driven engine need not run inside getEvent.
 */
public abstract class CompletionChannelSuite extends ProviderSuite {
    /** For a provider's subclass, which supplies the fixture. */
    public CompletionChannelSuite() {
    }

    private Endpoint a;
    private Endpoint b;
    private long nextWrId = 1;

    /** Connects a pair whose CQs report to completion channels. */
    @BeforeEach
    protected final void connectPairWithChannels() {
        Loopback lb = loopback(Options.defaults().withCompletionChannel(true));
        a = lb.a();
        b = lb.b();
    }

    @Test
    void armedCqRaisesAnEventForItsNextCompletion() {
        a.sendCq.requestNotify(false);
        sendAToB(SendFlags.SIGNALED);
        assertThat(a.channel.getEvent(fx.deadline())).as("the CQ the event names").isSameAs(a.sendCq);
        a.sendCq.ackEvents(1);
    }

    /** The waiter may enter getEvent before or after the completion: either way it gets the event. */
    @Test
    void getEventWakesAWaiterWhenACompletionArrives() throws InterruptedException, ExecutionException {
        a.sendCq.requestNotify(false);
        FutureTask<CompletionQueue> waiter = new FutureTask<>(() -> a.channel.getEvent(fx.deadline()));
        Thread.ofPlatform().daemon().name("getEvent waiter").start(waiter);
        b.qp.postRecv(new RecvWorkRequest().wrId(nextWrId).sg(Sge.of(b.recvMr, 0, 64)));
        a.qp.postSend(new SendWorkRequest().wrId(nextWrId).flags(SendFlags.SIGNALED).sg(Sge.of(a.sendMr, 0, 64)));
        await(waiter::isDone, "getEvent to return in the waiting thread");
        assertThat(waiter.get()).as("the CQ the event names").isSameAs(a.sendCq);
        a.sendCq.ackEvents(1);
        assertCompletion(awaitCompletion(a.sendCq, "the send"), nextWrId, WcStatus.SUCCESS);
    }

    @Test
    void unarmedCqsRaiseNoEvent() {
        sendAToB(SendFlags.SIGNALED);
        assertFails(Errno.ETIMEDOUT, () -> a.channel.getEvent(fx.settleTime()));
        assertFails(Errno.ETIMEDOUT, () -> b.channel.getEvent(fx.settleTime()));
    }

    /** ibv_req_notify_cq.3: one arm, one event; the CQ must be armed again for the next. */
    @Test
    void armingIsOneShot() {
        a.sendCq.requestNotify(false);
        sendAToB(SendFlags.SIGNALED);
        assertThat(a.channel.getEvent(fx.deadline())).isSameAs(a.sendCq);
        a.sendCq.ackEvents(1);

        sendAToB(SendFlags.SIGNALED);
        assertFails(Errno.ETIMEDOUT, () -> a.channel.getEvent(fx.settleTime()));

        a.sendCq.requestNotify(false);
        sendAToB(SendFlags.SIGNALED);
        assertThat(a.channel.getEvent(fx.deadline())).isSameAs(a.sendCq);
        a.sendCq.ackEvents(1);
    }

    @Test
    void eachCqOfAChannelIsNamedByItsOwnEvent() {
        a.sendCq.requestNotify(false);
        a.recvCq.requestNotify(false);
        a.qp.postRecv(new RecvWorkRequest().wrId(50).sg(Sge.of(a.recvMr, 0, 64)));
        b.qp.postSend(new SendWorkRequest().wrId(51).flags(SendFlags.SIGNALED).sg(Sge.of(b.sendMr, 0, 64)));
        sendAToB(SendFlags.SIGNALED);
        assertCompletion(awaitCompletion(a.recvCq, "A's receive"), 50, WcStatus.SUCCESS);
        List<CompletionQueue> events = List.of(a.channel.getEvent(fx.deadline()), a.channel.getEvent(fx.deadline()));
        assertThat(events).containsExactlyInAnyOrder(a.sendCq, a.recvCq);
        a.sendCq.ackEvents(1);
        a.recvCq.ackEvents(1);
    }

    /** IBA 11.4.2.2 (via rxe's SE bit, ROCEV2-FACTS §4.1): a solicited-only arm waits for SOLICITED. */
    @Test
    void solicitedOnlyArmIgnoresAnUnsolicitedSendAndFiresOnASolicitedOne() {
        assumeSupported(Feature.SOLICITED);
        b.recvCq.requestNotify(true);
        sendAToB(SendFlags.SIGNALED);
        assertFails(Errno.ETIMEDOUT, () -> b.channel.getEvent(fx.settleTime()));

        sendAToB(SendFlags.SIGNALED | SendFlags.SOLICITED);
        assertThat(b.channel.getEvent(fx.deadline())).isSameAs(b.recvCq);
        b.recvCq.ackEvents(1);
    }

    /** An unsuccessful completion also fires a solicited-only arm (rxe posts flushes as solicited). */
    @Test
    void solicitedOnlyArmFiresOnAnErrorCompletion() {
        assumeSupported(Feature.SOLICITED);
        b.qp.postRecv(new RecvWorkRequest().wrId(70).sg(Sge.of(b.recvMr, 0, 64)));
        b.recvCq.requestNotify(true);
        b.qp.modify(new QpAttr().state(QpState.ERR));
        assertCompletion(awaitCompletion(b.recvCq, "the flushed receive"), 70, WcStatus.WR_FLUSH_ERR);
        assertThat(b.channel.getEvent(fx.deadline())).isSameAs(b.recvCq);
        b.recvCq.ackEvents(1);
    }

    /** One 64-byte SEND from A to B; returns once both completions have been polled. */
    private void sendAToB(int flags) {
        long id = nextWrId++;
        b.qp.postRecv(new RecvWorkRequest().wrId(id).sg(Sge.of(b.recvMr, 0, 64)));
        a.qp.postSend(new SendWorkRequest().wrId(id).flags(flags).sg(Sge.of(a.sendMr, 0, 64)));
        assertCompletion(awaitCompletion(a.sendCq, "send " + id), id, WcStatus.SUCCESS);
        assertCompletion(awaitCompletion(b.recvCq, "receive " + id), id, WcStatus.SUCCESS);
    }
}
