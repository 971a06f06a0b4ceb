package org.jrdma.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jrdma.testkit.VerbsAssertions.assertFails;
import static org.jrdma.testkit.VerbsAssertions.assertPostFails;

import org.jrdma.testkit.Loopback.Endpoint;
import org.jrdma.testkit.Loopback.Options;
import org.jrdma.verbs.AsyncEvent;
import org.jrdma.verbs.AsyncEventType;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.PostException;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SharedReceiveQueue;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.SrqInitAttr;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Shared receive queues (ibv_create_srq.3, ibv_modify_srq.3, ibv_post_srq_recv.3): B1 and B2,
 * two QPs on one SRQ and one receive CQ, fed by A1 and A2. Receives are taken in post order
 * whichever QP a message arrives on; the limit event fires once when the posted WRs fall below
 * the limit and then disarms; a QP on an SRQ that enters ERR reports QP_LAST_WQE_REACHED and
 * leaves the SRQ's WRs to the other QPs; a full SRQ refuses with ENOMEM, a used one is not
 * destroyed (EBUSY).
 */
public abstract class SrqSuite extends RdmaSuiteBase {
    /** For a provider's subclass, which supplies the fixture. */
    public SrqSuite() {
    }

    private static final int SIZE = 64;
    private static final SrqInitAttr ATTR = new SrqInitAttr(16, 1, 0);

    private Endpoint a1;
    private Endpoint b1;
    private Endpoint a2;
    private Endpoint b2;
    private SharedReceiveQueue srq;
    private long nextReceive;
    private long received;

    /** Skips unless the provider has {@link Feature#SRQ}; connects two pairs whose receivers share one SRQ. */
    @BeforeEach
    protected final void connectTwoPairsOnOneSrq() {
        assumeSupported(Feature.SRQ);
        Loopback first = loopback(Options.defaults().withSrq(ATTR));
        Loopback second = loopback(Options.defaults().withSrq(ATTR).withSharedPeer(first.b()).withSeed(7));
        a1 = first.a();
        b1 = first.b();
        a2 = second.a();
        b2 = second.b();
        srq = b1.srq;
        assertThat(b2.srq).isSameAs(srq);
    }

    @Test
    void srqReportsAtLeastWhatWasAskedAndNoLimit() {
        SrqInitAttr q = srq.query();
        assertThat(q.maxWr()).as("max_wr").isGreaterThanOrEqualTo(ATTR.maxWr());
        assertThat(q.maxSge()).as("max_sge").isGreaterThanOrEqualTo(ATTR.maxSge());
        assertThat(q.srqLimit()).as("srq_limit").isZero();
    }

    /** Messages alternate between the two QPs; each takes the oldest posted receive. */
    @Test
    void twoQpsSharingAnSrqTakeItsReceivesInPostOrder() {
        int n = 8;
        postReceives(n);
        for (int i = 0; i < n; i++) {
            boolean first = i % 2 == 0;
            WorkCompletion r = sendAndReceive(first ? a1 : a2);
            assertWc(r, i, WcStatus.SUCCESS, first ? b1.qp : b2.qp);
            Payload.assertSameBytes(b1.recvMr.segment().asSlice((long) i * SIZE, SIZE),
                    (first ? a1 : a2).sendMr.segment().asSlice(0, SIZE), "message " + i + " in receive " + i);
        }
    }

    /** An SRQ gives no credits and has no per-QP receive: an empty one RNR-NAKs (rnr_retry 7) until a post. */
    @Test
    void anEmptySrqRnrNaksUntilAReceiveIsPosted() {
        a1.qp.postSend(send(1, SendFlags.SIGNALED, Sge.of(a1.sendMr, 0, SIZE)));
        assertNoCompletion(a1.sendCq, "A1's send CQ while the SRQ is empty");
        postReceives(1);
        assertWc(awaitCompletion(a1.sendCq, "the SEND once the SRQ has a receive"), 1, WcStatus.SUCCESS, a1.qp);
        assertWc(awaitCompletion(b1.recvCq, "its receive"), 0, WcStatus.SUCCESS, b1.qp);
    }

    /**
     * ibv_modify_srq.3: armed at 4 with 8 posted, no event while 4 remain; one when 3 remain,
     * naming the SRQ; then the limit reads 0 and further consumption raises nothing.
     */
    @Test
    void limitEventFiresOnceWhenPostedWrsFallBelowTheLimitThenDisarms() {
        assumeSupported(Feature.ASYNC_EVENTS);
        postReceives(8);
        srq.armLimit(4);
        assertThat(srq.query().srqLimit()).as("armed srq_limit").isEqualTo(4);
        for (int i = 0; i < 4; i++) {
            sendAndReceive(i % 2 == 0 ? a1 : a2);
        }
        assertFails(Errno.ETIMEDOUT, () -> b1.context.getAsyncEvent(fx.settleTime()));
        sendAndReceive(a2);
        AsyncEvent e = b1.context.getAsyncEvent(fx.deadline());
        try {
            assertThat(e.type()).as("event type").isEqualTo(AsyncEventType.SRQ_LIMIT_REACHED);
            assertThat(e.srq()).as("the SRQ the event names").isSameAs(srq);
            assertThat(e.qp()).as("qp of an SRQ event").isNull();
        } finally {
            e.ack();
        }
        assertThat(srq.query().srqLimit()).as("srq_limit after the event (disarmed)").isZero();
        sendAndReceive(a1);
        assertFails(Errno.ETIMEDOUT, () -> b1.context.getAsyncEvent(fx.settleTime()));
    }

    /** IBA 11.6.3 / ibv_get_async_event.3: a QP on an SRQ that enters ERR reports its last WQE. */
    @Test
    void qpOnAnSrqMovedToErrReportsLastWqeReached() {
        assumeSupported(Feature.ASYNC_EVENTS);
        assumeSupported(Feature.LAST_WQE_REACHED);
        b1.qp.modify(new QpAttr().state(QpState.ERR));
        AsyncEvent e = b1.context.getAsyncEvent(fx.deadline());
        try {
            assertThat(e.type()).as("event type").isEqualTo(AsyncEventType.QP_LAST_WQE_REACHED);
            assertThat(e.qp()).as("the QP the event names").isSameAs(b1.qp);
        } finally {
            e.ack();
        }
    }

    /** The SRQ's WRs are not the erring QP's to flush: B2 still receives them, in order. */
    @Test
    void srqWrsSurviveOneOfItsQpsEnteringErr() {
        postReceives(2);
        b1.qp.modify(new QpAttr().state(QpState.ERR));
        assertNoCompletion(b1.recvCq, "the SRQ's receive CQ after B1 entered ERR");
        assertWc(sendAndReceive(a2), 0, WcStatus.SUCCESS, b2.qp);
        assertWc(sendAndReceive(a2), 1, WcStatus.SUCCESS, b2.qp);
    }

    @Test
    void postingToAFullSrqIsRefusedWithEnomem() {
        int n = srq.query().maxWr();
        postReceives(n);
        assertFails(Errno.ENOMEM, () -> srq.postRecv(recv(-1, Sge.of(b1.recvMr, 0, SIZE))));
    }

    /** ibv_post_recv on a QP created with an SRQ: the QP has no receive queue of its own. */
    @Test
    void postRecvOnAQpWithAnSrqIsRefusedWithEinval() {
        assertFails(Errno.EINVAL, () -> b1.qp.postRecv(recv(1, Sge.of(b1.recvMr, 0, SIZE))));
    }

    /** ibv_destroy_srq: EBUSY while a QP uses it; fine once the QP is gone. */
    @Test
    void closingAnSrqThatAQpUsesIsRefusedWithEbusy() {
        ProtectionDomain pd = track(b1.context.allocPd());
        SharedReceiveQueue own = track(pd.createSrq(ATTR));
        CompletionQueue cq = track(b1.context.createCq(16, null));
        QueuePair qp = track(pd.createQp(new QpInitAttr().cq(cq).srq(own)));
        assertFails(Errno.EBUSY, own::close);
        assertFails(Errno.EBUSY, srq::close);
        closeNow(qp);
        closeNow(own);
    }

    /** ibv_post_srq_recv with a list: one call posts four receives, taken in list order. */
    @Test
    void aListPostedToAnSrqIsTakenInListOrder() {
        srq.postRecv(srqList(4)[0]);
        nextReceive = 4;
        for (int i = 0; i < 4; i++) {
            assertWc(sendAndReceive(i % 2 == 0 ? a1 : a2), i, WcStatus.SUCCESS, i % 2 == 0 ? b1.qp : b2.qp);
        }
    }

    /** WR 1 of 3 has one SGE more than the SRQ takes: WR 0 is posted (and received into), the rest not. */
    @Test
    void aBadWrInAnSrqListPostsTheOnesBeforeItOnly() {
        RecvWorkRequest[] wrs = srqList(3);
        Sge[] tooMany = new Sge[srq.query().maxSge() + 1];
        java.util.Arrays.fill(tooMany, Sge.of(b1.recvMr, 0, 8));
        wrs[1].sg(tooMany);
        PostException e = assertPostFails(Errno.EINVAL, () -> srq.postRecv(wrs[0]));
        assertThat(e.badRecvWr()).as("bad_wr").isSameAs(wrs[1]);
        assertThat(e.posted()).as("WRs posted before bad_wr").isEqualTo(1);
        assertWc(sendAndReceive(a1), 0, WcStatus.SUCCESS, b1.qp);
        a2.qp.postSend(send(1, SendFlags.SIGNALED, Sge.of(a2.sendMr, 0, SIZE)));
        assertNoCompletion(b1.recvCq, "the SRQ's receive CQ: only WR 0 of the list was posted");
    }

    /** A cyclic list is refused with EINVAL and posts nothing: the SRQ still takes max_wr receives. */
    @Test
    void aCyclicSrqListIsRefusedAndPostsNothing() {
        RecvWorkRequest[] wrs = srqList(3);
        wrs[2].next(wrs[0]);
        PostException e = assertPostFails(Errno.EINVAL, () -> srq.postRecv(wrs[0]));
        assertThat(e.posted()).isZero();
        assertThat(e.badRecvWr()).isSameAs(wrs[0]);
        postReceives(srq.query().maxWr());
        assertFails(Errno.ENOMEM, () -> srq.postRecv(recv(-1, Sge.of(b1.recvMr, 0, SIZE))));
    }

    // ---- helpers ------------------------------------------------------------------------------

    /** {@code n} receives with wr_ids 0 …, each into its own slot of B's buffer, chained in order. */
    private RecvWorkRequest[] srqList(int n) {
        RecvWorkRequest[] wrs = new RecvWorkRequest[n];
        for (int i = n - 1; i >= 0; i--) {
            wrs[i] = recv(i, Sge.of(b1.recvMr, (long) i * SIZE, SIZE)).next(i + 1 < n ? wrs[i + 1] : null);
        }
        return wrs;
    }


    /** Posts {@code n} receives on the SRQ with the next wr_ids, each into its own slot of B's buffer. */
    private void postReceives(int n) {
        for (int i = 0; i < n; i++) {
            long id = nextReceive++;
            srq.postRecv(recv(id, Sge.of(b1.recvMr, (id % 512) * SIZE, SIZE)));
        }
    }

    /** One SEND from {@code sender}; returns B's receive completion once both completions arrived. */
    private WorkCompletion sendAndReceive(Endpoint sender) {
        Payload.fill(sender.sendMr.segment().asSlice(0, SIZE), received);
        sender.qp.postSend(send(received, SendFlags.SIGNALED, Sge.of(sender.sendMr, 0, SIZE)));
        assertWc(awaitCompletion(sender.sendCq, "send " + received), received, WcStatus.SUCCESS, sender.qp);
        received++;
        return awaitCompletion(b1.recvCq, "the receive of message " + (received - 1));
    }
}
