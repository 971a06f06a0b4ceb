package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.jrdma.soft.engine.ThreadingMode;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.junit.jupiter.api.Test;

/**
 * Coalesced ACKs: SENDs that arrive in one receive burst are acknowledged by one ACK for the
 * last of them. In INVOKER mode the test steps the engine itself, so the bursts are exact.
 * REL-10: one ACK for PSN N stands for several WRs.
 */
class AckCoalescingTest {
    @Test
    void messagesArrivingTogetherShareOneAck() {
        SoftDevice dev = FreshDevices.fresh("coalesce", SoftOptions.defaults().threading(ThreadingMode.INVOKER));
        try (RcPair p = new RcPair(dev, Mtu.MTU_1024, 14, 7, 7, 12, 1 << 16)) {
            for (int i = 0; i < 20; i++) {
                p.postRecv(i, 64L * i, 64);
            }
            for (int i = 0; i < 20; i++) {
                p.send(100 + i, 0, 64, SendFlags.SIGNALED); // each SEND_ONLY asks for an ACK
            }
            WorkCompletion[] wc = {new WorkCompletion()};
            int sent = 0;
            int received = 0;
            for (long spins = 0; (sent < 20 || received < 20) && spins < 10_000_000L; spins++) {
                p.hca().doWork();
                while (p.cqA.poll(wc) == 1) {
                    assertThat(wc[0].status).isEqualTo(WcStatus.SUCCESS);
                    sent++;
                }
                while (p.cqB.poll(wc) == 1) {
                    received++;
                }
            }
            assertThat(sent).isEqualTo(20);
            assertThat(received).isEqualTo(20);
            Map<String, Long> c = p.hca().countersSnapshot();
            assertThat(c.get("acks_sent") + c.get("acks_coalesced")).as("every AckReq is answered").isEqualTo(20);
            assertThat(c.get("acks_coalesced")).as("ACKs folded into a later one").isPositive();
            assertThat(c.get("acks_rcvd")).isEqualTo(c.get("acks_sent"));
        }
    }
}
