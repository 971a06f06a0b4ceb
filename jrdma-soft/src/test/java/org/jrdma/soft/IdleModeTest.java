package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.jrdma.soft.engine.BackoffIdle;
import org.jrdma.soft.engine.ParkIdle;
import org.jrdma.soft.engine.SpinIdle;
import org.jrdma.soft.engine.ThreadingMode;
import org.jrdma.soft.engine.YieldIdle;
import org.jrdma.soft.transport.QpCounter;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The engine thread's idle mode, from SoftOptions to the running device. */
class IdleModeTest {
    private static final Duration DEADLINE = Duration.ofSeconds(10);

    @Test
    void theDefaultIsTheBackoff() {
        assertThat(SoftOptions.defaults().idle()).isEqualTo(IdleMode.BACKOFF);
        assertThat(SoftOptions.defaults().threading(ThreadingMode.INVOKER).privateCounters().idle())
                .as("kept by the other options").isEqualTo(IdleMode.BACKOFF);
    }

    /**
     * Each mode reaches the device, and its engine thread alone carries a SEND: after the post
     * nothing polls until both packets (the request, its ACK) were received, so the device's
     * thread — spinning, yielding or woken from its park by the datagram — moved them.
     */
    @ParameterizedTest
    @EnumSource(IdleMode.class)
    void theEngineThreadCarriesTrafficInEveryMode(IdleMode mode) {
        SoftDevice dev = FreshDevices.fresh("idle-" + mode.name().toLowerCase(java.util.Locale.ROOT),
                SoftOptions.defaults().privateCounters().idle(mode));
        try (RcPair p = new RcPair(dev, Mtu.MTU_1024, 14, 7, 7, 12, 4096)) {
            assertThat(p.hca().idleStrategy()).isInstanceOf(switch (mode) {
                case BACKOFF -> BackoffIdle.class;
                case SPIN -> SpinIdle.class;
                case YIELD -> YieldIdle.class;
                case PARK -> ParkIdle.class;
            });
            long received = p.hca().count(QpCounter.RCVD_PACKETS);
            p.postRecv(1, 0, 64);
            p.send(2, 0, 64);
            RcPair.await(() -> p.hca().count(QpCounter.RCVD_PACKETS) >= received + 2, DEADLINE, "the SEND and its ACK");

            List<WorkCompletion> sent = RcPair.poll(p.cqA, 1, DEADLINE);
            List<WorkCompletion> got = RcPair.poll(p.cqB, 1, DEADLINE);
            assertThat(sent).extracting(wc -> wc.status).containsExactly(WcStatus.SUCCESS);
            assertThat(got).extracting(wc -> wc.status).containsExactly(WcStatus.SUCCESS);
        }
    }
}
