package org.jrdma.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jrdma.testkit.VerbsAssertions.assertCompletion;
import static org.jrdma.testkit.VerbsAssertions.assertFails;
import static org.jrdma.testkit.VerbsAssertions.assertPostFails;
import static org.jrdma.verbs.QpState.ERR;
import static org.jrdma.verbs.QpState.INIT;
import static org.jrdma.verbs.QpState.RESET;
import static org.jrdma.verbs.QpState.RTR;
import static org.jrdma.verbs.QpState.RTS;
import static org.jrdma.verbs.QpState.SQD;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.PostException;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What posting does in each QP state: EINVAL before the state allows it, ENOMEM when a queue is
 * full, WR_FLUSH_ERR for everything posted in or outstanding at ERR — in order, once each,
 * unsignaled sends too — and silence after → RESET (ROCEV2-FACTS §3.5, RELIABILITY-SECURITY
 * REL-18).
 */
public abstract class QpPostingSuite extends QpSuiteBase {
    /** For a provider's subclass, which supplies the fixture. */
    public QpPostingSuite() {
    }

    /** rdma-core post_rq_state_bad_flow: no receive may be posted in RESET (§3.1). */
    @Test
    void postRecvInResetIsRefusedWithEinval() {
        QueuePair qp = qpIn(RESET);
        assertFails(Errno.EINVAL, () -> qp.postRecv(recv(1)));
        assertNoCompletion(recvCq, "the receive CQ");
    }

    @ParameterizedTest
    @EnumSource(names = {"INIT", "RTR", "RTS"})
    void postRecvIsAcceptedFromInitOn(QpState state) {
        QueuePair qp = qpIn(state);
        qp.postRecv(recv(1));
        assertThat(qp.query().qpState()).isEqualTo(state);
    }

    /** rdma-core post_sq_state_bad_flow: sends need RTS, SQD or ERR (§3.1). */
    @ParameterizedTest
    @EnumSource(names = {"RESET", "INIT", "RTR"})
    void postSendBeforeRtsIsRefusedWithEinval(QpState state) {
        QueuePair qp = qpIn(state);
        assertFails(Errno.EINVAL, () -> qp.postSend(send(1, SendFlags.SIGNALED)));
        assertNoCompletion(sendCq, "the send CQ");
    }

    @Test
    void overPostingReceivesIsRefusedWithEnomem() {
        assumeSupported(Feature.QUEUE_FULL_AT_GRANTED_CAP);
        QueuePair qp = qpIn(INIT);
        int n = qp.cap().maxRecvWr();
        for (int i = 0; i < n; i++) {
            qp.postRecv(recv(i));
        }
        assertFails(Errno.ENOMEM, () -> qp.postRecv(recv(n)));
        assertThat(qp.query().qpState()).isEqualTo(INIT);
    }

    /** B posts no receive, so A's SENDs meet RNR NAKs and, with RNR retry 7 (infinite), stay queued. */
    @Test
    void overPostingSendsIsRefusedWithEnomem() {
        assumeSupported(Feature.QUEUE_FULL_AT_GRANTED_CAP);
        Loopback.Endpoint a = loopback(Loopback.Options.defaults().withCap(CAP)).a();
        int n = a.qp.cap().maxSendWr();
        for (int i = 0; i < n; i++) {
            a.qp.postSend(new SendWorkRequest().wrId(i).flags(SendFlags.SIGNALED).sg(Sge.of(a.sendMr, 0, 64)));
        }
        assertFails(Errno.ENOMEM,
                () -> a.qp.postSend(new SendWorkRequest().wrId(n).flags(SendFlags.SIGNALED).sg(Sge.of(a.sendMr, 0, 64))));
        assertThat(a.qp.query().qpState()).isEqualTo(RTS);
    }

    /** §3.5: WRs posted in ERR complete with WR_FLUSH_ERR, unsignaled sends too; REL-18. */
    @Test
    void workPostedInErrIsFlushedOnceEachInOrder() {
        QueuePair qp = qpIn(ERR);
        // rxe 6.1 flushes sends posted in ERR but leaves receives queued (Feature.FLUSH_RECV_POSTED_IN_ERR)
        boolean receives = fx.supports(Feature.FLUSH_RECV_POSTED_IN_ERR);
        for (int i = 0; i < (receives ? 5 : 0); i++) {
            qp.postRecv(recv(100 + i));
        }
        for (int i = 0; i < 6; i++) {
            qp.postSend(send(200 + i, i % 2 == 0 ? SendFlags.SIGNALED : 0));
        }
        if (receives) {
            assertFlushedInOrder(awaitCompletions(recvCq, 5, "receives posted in ERR"), 100, qp.qpNum());
        }
        assertFlushedInOrder(awaitCompletions(sendCq, 6, "sends posted in ERR, unsignaled ones too"), 200, qp.qpNum());
        assertNoCompletion(recvCq, "the receive CQ after every receive was flushed once");
        assertNoCompletion(sendCq, "the send CQ after every send was flushed once");
    }

    /** §3.5 and rxe: every outstanding SQ and RQ WQE is flushed in order when the QP enters ERR. */
    @Test
    void outstandingWorkIsFlushedInOrderWhenTheQpMovesToErr() {
        Loopback.Endpoint a = loopback(Loopback.Options.defaults().withCap(CAP)).a();
        postStalledWork(a, 4, 6);
        a.qp.modify(new QpAttr().state(ERR));
        assertFlushedInOrder(awaitCompletions(a.recvCq, 4, "receives outstanding at ERR"), 100, a.qp.qpNum());
        assertFlushedInOrder(awaitCompletions(a.sendCq, 6, "sends outstanding at ERR, unsignaled ones too"), 200,
                a.qp.qpNum());
        assertNoCompletion(a.recvCq, "A's receive CQ after the flush");
        assertNoCompletion(a.sendCq, "A's send CQ after the flush");
    }

    /** §3.5: → RESET empties both queues silently; afterwards the RQ holds only new WRs. */
    @Test
    void resetEmptiesBothQueuesWithoutCompletions() {
        Loopback.Endpoint a = loopback(Loopback.Options.defaults().withCap(CAP)).a();
        postStalledWork(a, 4, 4);
        a.qp.modify(new QpAttr().state(RESET));
        assertThat(a.qp.query().qpState()).isEqualTo(RESET);
        assertNoCompletion(a.recvCq, "A's receive CQ after → RESET");
        assertNoCompletion(a.sendCq, "A's send CQ after → RESET");

        a.qp.modify(RcAttrs.init(fx.port(), RcAttrs.ACCESS));
        int n = a.qp.cap().maxRecvWr();
        assumeTrue(n <= a.recvCq.capacity(), "the receive CQ holds a full RQ");
        for (int i = 0; i < n; i++) {
            // A full RQ's worth fits only if the four earlier receives are gone.
            a.qp.postRecv(new RecvWorkRequest().wrId(1000 + i).sg(Sge.of(a.recvMr, 0, 64)));
        }
        a.qp.modify(new QpAttr().state(ERR));
        assertFlushedInOrder(awaitCompletions(a.recvCq, n, "receives posted after RESET, flushed by ERR"), 1000,
                a.qp.qpNum());
        assertNoCompletion(a.recvCq, "A's receive CQ: nothing left from before RESET");
        assertNoCompletion(a.sendCq, "A's send CQ: nothing left from before RESET");
    }

    // ---- post lists (ibv_post_send's wr->next) --------------------------------------------------

    /**
     * A list of four SENDs, each a different length, posted as one call onto a list of four
     * receives posted as one call: the sends complete in list order with their wr_ids, and each
     * receive takes the send of its place (its byte_len).
     */
    @Test
    void aSendListOntoAReceiveListCompletesInListOrder() {
        Loopback lb = loopback(Loopback.Options.defaults().withCap(CAP));
        Loopback.Endpoint a = lb.a();
        Loopback.Endpoint b = lb.b();
        RecvWorkRequest[] recvs = new RecvWorkRequest[4];
        SendWorkRequest[] sends = new SendWorkRequest[4];
        for (int i = 3; i >= 0; i--) {
            recvs[i] = new RecvWorkRequest().wrId(20 + i).sg(Sge.of(b.recvMr, 256L * i, 256)).next(i < 3 ? recvs[i + 1] : null);
            sends[i] = new SendWorkRequest().wrId(10 + i).flags(SendFlags.SIGNALED).sg(Sge.of(a.sendMr, 0, 16 * (i + 1)))
                    .next(i < 3 ? sends[i + 1] : null);
        }
        b.qp.postRecv(recvs[0]);
        a.qp.postSend(sends[0]);
        List<WorkCompletion> sent = awaitCompletions(a.sendCq, 4, "the four SENDs of the list");
        List<WorkCompletion> received = awaitCompletions(b.recvCq, 4, "the four receives of the list");
        for (int i = 0; i < 4; i++) {
            assertCompletion(sent.get(i), 10 + i, WcStatus.SUCCESS);
            assertCompletion(received.get(i), 20 + i, WcStatus.SUCCESS);
            assertThat(received.get(i).byteLen).as("byte_len of receive %d", i).isEqualTo(16 * (i + 1));
        }
        assertNoCompletion(a.sendCq, "A's send CQ after the list");
    }

    /**
     * ibv_post_send.3: a WR refused in the middle of a list leaves the ones before it posted (they
     * complete) and it and the rest unposted; the exception names it, and how many went. Here WR
     * 2 of 5 has one SGE more than the QP was granted (EINVAL).
     */
    @Test
    void aBadWrInTheMiddleOfASendListPostsTheOnesBeforeItOnly() {
        Loopback lb = loopback(Loopback.Options.defaults().withCap(CAP));
        Loopback.Endpoint a = lb.a();
        Loopback.Endpoint b = lb.b();
        for (int i = 0; i < 5; i++) {
            b.qp.postRecv(new RecvWorkRequest().wrId(100 + i).sg(Sge.of(b.recvMr, 64L * i, 64)));
        }
        SendWorkRequest[] sends = sendList(a, 5);
        Sge[] tooMany = new Sge[a.qp.cap().maxSendSge() + 1];
        java.util.Arrays.fill(tooMany, Sge.of(a.sendMr, 0, 8));
        sends[2].sg(tooMany);
        PostException e = assertPostFails(Errno.EINVAL, () -> a.qp.postSend(sends[0]));
        assertThat(e.badSendWr()).as("bad_wr").isSameAs(sends[2]);
        assertThat(e.posted()).as("WRs posted before bad_wr").isEqualTo(2);
        List<WorkCompletion> sent = awaitCompletions(a.sendCq, 2, "the two SENDs before the bad WR");
        assertCompletion(sent.get(0), 0, WcStatus.SUCCESS);
        assertCompletion(sent.get(1), 1, WcStatus.SUCCESS);
        awaitCompletions(b.recvCq, 2, "the receives of the two SENDs");
        assertNoCompletion(a.sendCq, "A's send CQ: the bad WR and the two after it were not posted");
        assertNoCompletion(b.recvCq, "B's receive CQ: only two SENDs arrived");
        a.qp.postSend(new SendWorkRequest().wrId(99).flags(SendFlags.SIGNALED).sg(Sge.of(a.sendMr, 0, 64)));
        assertCompletion(awaitCompletion(a.sendCq, "a SEND posted after the failed list"), 99, WcStatus.SUCCESS);
    }

    /** The same for a receive list: WR 1 of 3 is refused; moving the QP to ERR flushes only WR 0. */
    @Test
    void aBadWrInTheMiddleOfAReceiveListPostsTheOnesBeforeItOnly() {
        Loopback.Endpoint a = loopback(Loopback.Options.defaults().withCap(CAP)).a();
        RecvWorkRequest[] recvs = recvList(a, 3);
        Sge[] tooMany = new Sge[a.qp.cap().maxRecvSge() + 1];
        java.util.Arrays.fill(tooMany, Sge.of(a.recvMr, 0, 8));
        recvs[1].sg(tooMany);
        PostException e = assertPostFails(Errno.EINVAL, () -> a.qp.postRecv(recvs[0]));
        assertThat(e.badRecvWr()).as("bad_wr").isSameAs(recvs[1]);
        assertThat(e.posted()).as("WRs posted before bad_wr").isEqualTo(1);
        a.qp.modify(new QpAttr().state(ERR));
        assertFlushedInOrder(awaitCompletions(a.recvCq, 1, "the one receive posted before the bad WR"), 300, a.qp.qpNum());
        assertNoCompletion(a.recvCq, "A's receive CQ: the bad WR and the one after it were not posted");
    }

    /** A cyclic list would never end: refused with EINVAL, nothing posted, the head named. */
    @Test
    void aCyclicSendListIsRefusedAndPostsNothing() {
        QueuePair qp = qpIn(RTS);
        SendWorkRequest a = send(1, SendFlags.SIGNALED);
        SendWorkRequest b = send(2, SendFlags.SIGNALED);
        SendWorkRequest c = send(3, SendFlags.SIGNALED);
        a.next(b);
        b.next(c);
        c.next(b); // a → b → c → b → …
        PostException e = assertPostFails(Errno.EINVAL, () -> qp.postSend(a));
        assertThat(e.posted()).isZero();
        assertThat(e.badSendWr()).isSameAs(a);
        qp.modify(new QpAttr().state(ERR)); // anything posted would now be flushed
        assertNoCompletion(sendCq, "the send CQ: nothing of the cyclic list was posted");
    }

    @Test
    void aCyclicReceiveListIsRefusedAndPostsNothing() {
        QueuePair qp = qpIn(INIT);
        RecvWorkRequest r = recv(1);
        r.next(r);
        PostException e = assertPostFails(Errno.EINVAL, () -> qp.postRecv(r));
        assertThat(e.posted()).isZero();
        assertThat(e.badRecvWr()).isSameAs(r);
        qp.modify(new QpAttr().state(ERR));
        assertNoCompletion(recvCq, "the receive CQ: nothing of the cyclic list was posted");
    }

    /**
     * A list longer than the send queue fails where the queue runs out: ENOMEM at WR max_send_wr,
     * with every WR before it posted. B posts no receive, so nothing completes meanwhile.
     */
    @Test
    void aSendListLongerThanTheQueueFailsWhereTheQueueRunsOut() {
        Loopback.Endpoint a = loopback(Loopback.Options.defaults().withCap(CAP)).a();
        int n = a.qp.cap().maxSendWr();
        SendWorkRequest[] sends = sendList(a, n + 3);
        PostException e = assertPostFails(Errno.ENOMEM, () -> a.qp.postSend(sends[0]));
        assertThat(e.posted()).as("WRs posted").isEqualTo(n);
        assertThat(e.badSendWr()).isSameAs(sends[n]);
        a.qp.modify(new QpAttr().state(ERR));
        assertFlushedInOrder(awaitCompletions(a.sendCq, n, "the WRs of the list that fitted, flushed by ERR"), 0, a.qp.qpNum());
        assertNoCompletion(a.sendCq, "A's send CQ: nothing past the full queue was posted");
    }

    @Test
    void aReceiveListLongerThanTheQueueFailsWhereTheQueueRunsOut() {
        Loopback.Endpoint a = loopback(Loopback.Options.defaults().withCap(CAP)).a();
        int n = a.qp.cap().maxRecvWr();
        assumeTrue(n <= a.recvCq.capacity(), "the receive CQ holds a full RQ");
        RecvWorkRequest[] recvs = recvList(a, n + 1);
        PostException e = assertPostFails(Errno.ENOMEM, () -> a.qp.postRecv(recvs[0]));
        assertThat(e.posted()).as("WRs posted").isEqualTo(n);
        assertThat(e.badRecvWr()).isSameAs(recvs[n]);
        a.qp.modify(new QpAttr().state(ERR));
        assertFlushedInOrder(awaitCompletions(a.recvCq, n, "the receives of the list that fitted, flushed by ERR"), 300,
                a.qp.qpNum());
    }

    // ---- helpers ------------------------------------------------------------------------------

    /** {@code n} signaled 64-byte SENDs from A's send buffer, wr_ids 0 …, chained in that order. */
    private static SendWorkRequest[] sendList(Loopback.Endpoint a, int n) {
        SendWorkRequest[] wrs = new SendWorkRequest[n];
        for (int i = n - 1; i >= 0; i--) {
            wrs[i] = new SendWorkRequest().wrId(i).flags(SendFlags.SIGNALED).sg(Sge.of(a.sendMr, 0, 64))
                    .next(i + 1 < n ? wrs[i + 1] : null);
        }
        return wrs;
    }

    /** {@code n} 64-byte receives into A's receive buffer, wr_ids 300 …, chained in that order. */
    private static RecvWorkRequest[] recvList(Loopback.Endpoint a, int n) {
        RecvWorkRequest[] wrs = new RecvWorkRequest[n];
        for (int i = n - 1; i >= 0; i--) {
            wrs[i] = new RecvWorkRequest().wrId(300 + i).sg(Sge.of(a.recvMr, 64L * (i % 64), 64))
                    .next(i + 1 < n ? wrs[i + 1] : null);
        }
        return wrs;
    }

    /**
     * Posts receives 100.. and sends 200.. (every other one unsignaled) on A while B has no
     * receive posted: B answers each SEND with an RNR NAK, and with RNR retry 7 (infinite,
     * IBA) nothing completes, which the settle period checks.
     */
    private void postStalledWork(Loopback.Endpoint a, int recvs, int sends) {
        for (int i = 0; i < recvs; i++) {
            a.qp.postRecv(new RecvWorkRequest().wrId(100 + i).sg(Sge.of(a.recvMr, 64L * i, 64)));
        }
        for (int i = 0; i < sends; i++) {
            a.qp.postSend(new SendWorkRequest().wrId(200 + i).flags(i % 2 == 0 ? SendFlags.SIGNALED : 0)
                    .sg(Sge.of(a.sendMr, 0, 64)));
        }
        assertNoCompletion(a.sendCq, "A's send CQ while B has no receive posted");
        assertNoCompletion(a.recvCq, "A's receive CQ while B sends nothing");
    }

    private static void assertFlushedInOrder(List<WorkCompletion> wcs, long firstWrId, int qpNum) {
        for (int i = 0; i < wcs.size(); i++) {
            WorkCompletion wc = wcs.get(i);
            assertCompletion(wc, firstWrId + i, WcStatus.WR_FLUSH_ERR);
            assertThat(wc.qpNum).as("qp_num of %s", wc).isEqualTo(qpNum);
        }
    }
}
