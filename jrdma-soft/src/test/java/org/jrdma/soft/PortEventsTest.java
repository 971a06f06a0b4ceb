package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.jrdma.verbs.AsyncEvent;
import org.jrdma.verbs.AsyncEventType;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.PortState;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.WcStatus;
import org.junit.jupiter.api.Test;

/**
 * Port events, and a partition that heals within the retry budget or does not (CH-08): a
 * healed link completes the message; a dead one ends in RETRY_EXC_ERR — never a silent hang.
 */
class PortEventsTest {
    private static final Duration DEADLINE = Duration.ofSeconds(20);

    @Test
    void aPartitionThatHealsWithinTheRetryBudgetLosesNothing() {
        try (RcPair p = new RcPair(FreshDevices.fresh("port"), Mtu.MTU_1024, 10, 7, 7, 12, 8192)) {
            p.fill(p.bufA, 31);
            p.postRecv(1, 0, 5000);
            p.hca().setPortActive(false);
            assertThat(p.ctx.queryPort(1).state()).isEqualTo(PortState.DOWN);
            AsyncEvent down = p.ctx.getAsyncEvent(DEADLINE);
            assertThat(down.type()).isEqualTo(AsyncEventType.PORT_ERR);
            assertThat(down.portNum()).isEqualTo(1);
            down.ack();

            p.send(2, 0, 5000);
            RcPair.await(() -> p.hca().countersSnapshot().get("retry_timeouts") >= 2, DEADLINE, "two retransmit timeouts");
            p.hca().setPortActive(true);
            AsyncEvent up = p.ctx.getAsyncEvent(DEADLINE);
            assertThat(up.type()).isEqualTo(AsyncEventType.PORT_ACTIVE);
            up.ack();

            assertThat(RcPair.poll(p.cqA, 1, DEADLINE).getFirst().status).isEqualTo(WcStatus.SUCCESS);
            assertThat(RcPair.poll(p.cqB, 1, DEADLINE).getFirst().byteLen).isEqualTo(5000);
            assertThat(p.bufB.asSlice(0, 5000).mismatch(p.bufA.asSlice(0, 5000))).isEqualTo(-1);
        }
    }

    @Test
    void aPartitionLongerThanTheRetryBudgetEndsInRetryExceeded() {
        try (RcPair p = new RcPair(FreshDevices.fresh("port"), Mtu.MTU_1024, 8, 2, 7, 12, 8192)) {
            p.postRecv(1, 0, 100);
            p.hca().setPortActive(false);
            p.send(2, 0, 100);
            p.send(3, 0, 100, 0);
            var wcs = RcPair.poll(p.cqA, 2, DEADLINE);
            assertThat(wcs).extracting(w -> w.status).containsExactly(WcStatus.RETRY_EXC_ERR, WcStatus.WR_FLUSH_ERR);
            assertThat(p.a.state()).isEqualTo(QpState.ERR);
            // The passive side saw nothing and still waits: it learns of the loss from its application.
            assertThat(p.b.state()).isEqualTo(QpState.RTS);
        }
    }
}
