package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.jrdma.soft.engine.ThreadingMode;
import org.jrdma.verbs.AsyncEvent;
import org.jrdma.verbs.AsyncEventType;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.PortState;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.junit.jupiter.api.Test;

/**
 * Port events, and a partition that heals within the retry budget or does not (CH-08): a
 * healed link completes the message; a dead one ends in RETRY_EXC_ERR — never a silent hang.
 */
class PortEventsTest {
    private static final Duration DEADLINE = Duration.ofSeconds(20);
    private static final long STEP_NANOS = 100_000L;

    private final AtomicLong clock = new AtomicLong(1_000_000_000L);

    /**
     * The device is stepped by the test on its own clock: the heal comes after two timeouts of
     * the device's clock, whatever the machine does meanwhile. On the engine thread with real
     * time, a test thread preempted for 25 ms between seeing the second timeout and healing the
     * port (timeout 10: 4.2 ms a try, eight tries) let the budget run out — 4 runs in 200 on a
     * loaded two-core machine ended in RETRY_EXC_ERR.
     */
    @Test
    void aPartitionThatHealsWithinTheRetryBudgetLosesNothing() {
        SoftOptions stepped = SoftOptions.defaults().threading(ThreadingMode.INVOKER).clock(clock::get).privateCounters();
        try (RcPair p = new RcPair(FreshDevices.fresh("port", stepped), Mtu.MTU_1024, 10, 7, 7, 12, 8192)) {
            p.fill(p.bufA, 31);
            p.postRecv(1, 0, 5000);
            p.hca().setPortActive(false);
            assertThat(p.ctx.queryPort(1).state()).isEqualTo(PortState.DOWN);
            AsyncEvent down = p.ctx.getAsyncEvent(DEADLINE);
            assertThat(down.type()).isEqualTo(AsyncEventType.PORT_ERR);
            assertThat(down.portNum()).isEqualTo(1);
            down.ack();

            p.send(2, 0, 5000);
            stepUntil(p, () -> p.hca().countersSnapshot().get("retry_timeouts") >= 2, "two retransmit timeouts");
            p.hca().setPortActive(true);
            AsyncEvent up = p.ctx.getAsyncEvent(DEADLINE);
            assertThat(up.type()).isEqualTo(AsyncEventType.PORT_ACTIVE);
            up.ack();

            WorkCompletion[] wc = {new WorkCompletion()};
            stepUntil(p, () -> p.cqA.poll(wc) == 1, "the SEND's completion");
            assertThat(wc[0].status).isEqualTo(WcStatus.SUCCESS);
            stepUntil(p, () -> p.cqB.poll(wc) == 1, "the receive's completion");
            assertThat(wc[0].byteLen).isEqualTo(5000);
            assertThat(p.bufB.asSlice(0, 5000).mismatch(p.bufA.asSlice(0, 5000))).isEqualTo(-1);
            // the two during the cut, and the one whose retransmission found the port back up
            assertThat(p.hca().countersSnapshot().get("retry_timeouts")).isEqualTo(3L);
        }
    }

    /** Steps the device 0.1 ms of its clock at a time until {@code done}, for at most a minute of it. */
    private void stepUntil(RcPair p, BooleanSupplier done, String what) {
        for (long t = 0; !done.getAsBoolean(); t += STEP_NANOS) {
            if (t > 60_000_000_000L) {
                throw new AssertionError("no " + what + " in 60 s of the device's clock");
            }
            clock.addAndGet(STEP_NANOS);
            p.hca().doWork();
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
