package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/**
 * REL-17, the "class J" row of RELIABILITY-SECURITY §2.2: a SEND_WITH_INV naming an rkey that is
 * no window of the responder's fails the responder's receive with REM_INV_REQ_ERR and moves the
 * responder to ERR; the requester learns of it (an error completion, not a hang).
 */
class SendWithInvalidateErrorTest {
    @Test
    void rel17ClassJSendWithInvalidateOfABadRkeyFailsTheReceive() {
        try (RcPair p = new RcPair(FreshDevices.fresh("sendinv"), Mtu.MTU_1024, 14, 7, 7, 12, 4096)) {
            p.postRecv(1, 0, 64);
            SendWorkRequest wr = new SendWorkRequest().wrId(2).opcode(WrOpcode.SEND_WITH_INV).flags(SendFlags.SIGNALED)
                    .sg(Sge.of(p.mrA, 0, 64));
            wr.invalidateRkey = 0x0BAD0BAD;
            p.a.postSend(wr);
            WorkCompletion recv = RcPair.poll(p.cqB, 1, Duration.ofSeconds(20)).getFirst();
            assertThat(recv.wrId).isEqualTo(1);
            assertThat(recv.status).isEqualTo(WcStatus.REM_INV_REQ_ERR);
            WorkCompletion sent = RcPair.poll(p.cqA, 1, Duration.ofSeconds(20)).getFirst();
            assertThat(sent.wrId).isEqualTo(2);
            assertThat(sent.status).as("the requester's view of %s", sent).isNotEqualTo(WcStatus.SUCCESS);
            assertThat(p.b.state()).isEqualTo(QpState.ERR);
        }
    }
}
