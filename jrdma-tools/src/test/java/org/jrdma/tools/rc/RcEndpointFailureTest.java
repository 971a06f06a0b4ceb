package org.jrdma.tools.rc;

import static org.assertj.core.api.Assertions.assertThat;

import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.junit.jupiter.api.Test;

/** What a ping-pong end says when a completion fails: the message, the ibv status, and the likely cause. */
class RcEndpointFailureTest {
    private static WorkCompletion wc(long wrId, WcStatus status) {
        WorkCompletion c = new WorkCompletion();
        c.wrId = wrId;
        c.status = status;
        return c;
    }

    @Test
    void aRetryErrorOnASendNamesTheMessageAndThatThePeerStoppedAcknowledging() {
        // it said "completion failed: transport retry counter exceeded (12) for wr_id 17"
        assertThat(RcEndpoint.failed("client", wc(RcEndpoint.SEND_WR_ID | 17, WcStatus.RETRY_EXC_ERR)))
                .hasMessage("client: the send of message 17 failed: transport retry counter exceeded (12): the peer stopped"
                        + " acknowledging — it ended, was killed or stopped, or the path to it is down (EIO)");
        assertThat(RcEndpoint.failed("server", wc(RcEndpoint.SEND_WR_ID | 3, WcStatus.RNR_RETRY_EXC_ERR)))
                .hasMessage("server: the send of message 3 failed: RNR retry counter exceeded (13): the peer had no receive posted (EIO)");
        assertThat(RcEndpoint.failed("server", wc(0, WcStatus.REM_INV_REQ_ERR))) // -m 4096 against -m 256
                .hasMessage("server: receive 0 failed: remote invalid request error (9): the peer refused the request (do both sides"
                        + " run the same -s and -m?) (EIO)");
        assertThat(RcEndpoint.failed("server", wc(40, WcStatus.WR_FLUSH_ERR)))
                .hasMessage("server: receive 40 failed: Work Request Flushed Error (5): the QP had failed before (EIO)");
    }
}
