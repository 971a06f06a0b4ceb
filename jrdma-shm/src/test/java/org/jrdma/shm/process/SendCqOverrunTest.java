package org.jrdma.shm.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.jrdma.verbs.AsyncEvent;
import org.jrdma.verbs.AsyncEventType;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/**
 * A requester that completes into its own full send CQ: IBA's CQ overrun — CQ_ERR on the CQ
 * and the QP that overran it in ERR (the testkit's overflow test covers the peer's receive CQ).
 */
class SendCqOverrunTest {
    @Test
    void signaledWritesPastTheSendCqsCapacityRaiseCqErrAndMoveTheQpToErr() {
        try (PeerEnd a = new PeerEnd(1 << 16, true); PeerEnd b = new PeerEnd(1 << 16, true)) {
            a.connect(b.line());
            b.connect(a.line());
            int capacity = a.cq.capacity();
            SendWorkRequest wr = new SendWorkRequest().opcode(WrOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED)
                    .sg(Sge.of(a.mr, 0, 64)).rdma(b.mr.addr(), b.mr.rkey());
            // nobody polls: capacity completions fit the ring (it may hold a few more), then one overruns it
            for (int i = 0; i < 4 * capacity && a.qp.state() == QpState.RTS; i++) {
                a.qp.postSend(wr.wrId(i));
            }
            assertThat(a.qp.state()).as("the QP that overran its send CQ").isEqualTo(QpState.ERR);
            AsyncEvent e = a.context.getAsyncEvent(Duration.ofSeconds(30));
            try {
                assertThat(e.type()).isEqualTo(AsyncEventType.CQ_ERR);
                assertThat(e.cq()).isSameAs(a.cq);
            } finally {
                e.ack();
            }
            assertThat(b.qp.state()).as("the responder, whose CQs are fine").isEqualTo(QpState.RTS);
        }
    }
}
