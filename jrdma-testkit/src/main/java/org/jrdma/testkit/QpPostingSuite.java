package org.jrdma.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jrdma.testkit.VerbsAssertions.assertCompletion;
import static org.jrdma.testkit.VerbsAssertions.assertFails;
import static org.jrdma.verbs.QpState.ERR;
import static org.jrdma.verbs.QpState.INIT;
import static org.jrdma.verbs.QpState.RESET;
import static org.jrdma.verbs.QpState.RTR;
import static org.jrdma.verbs.QpState.RTS;
import static org.jrdma.verbs.QpState.SQD;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import org.jrdma.verbs.Errno;
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

    // ---- helpers ------------------------------------------------------------------------------

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
