package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.jrdma.soft.net.ImpairedDatagrams;
import org.jrdma.soft.net.Impairment;
import org.jrdma.verbs.Mtu;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * RC over a bad network (RELIABILITY-SECURITY §6.9 CH-01..CH-06, CH-09, on one device, so
 * requests and ACKs are both impaired): every SEND completes exactly once with byte-exact
 * data, and recovery really happened. The run's impairment, seed included, is in every failure
 * message so that it replays.
 */
class ImpairedRcTest {
    private static final int MESSAGES = 200;
    private static final int SIZE = 3000; // three packets at MTU 1024
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    /**
     * 4.096 µs × 2^10 ≈ 4.2 ms, with retry_cnt 7: tail losses stay cheap (the run takes the
     * same time as with 8), and the QP survives ~34 ms without progress. At timeout 8 (≈ 1 ms)
     * a loaded 2-vCPU machine retried spuriously, even without loss (see NetnsLossTest).
     */
    private static final int TIMEOUT = 10;

    @ParameterizedTest
    @ValueSource(strings = {
        "loss=5%,reorder=1%/gap:3,dup=1%,corrupt=0.1%,seed=20260101",
        "burst=p:0.01/r:0.3,seed=7",
        "loss=1%,reorder=10%/gap:5/hold:200us,dup=10%,seed=8",
        "corrupt=2%,seed=9",
        "loss=2%,dup=2%,delay=200us/jitter:100us,seed=10",
    })
    void everySendArrivesOnceAndIntact(String spec) {
        check(Impairment.parse(spec));
    }

    /**
     * CH-03 at high rates: reordering alone (no loss, no timeout) must never exhaust
     * retry_cnt. A sequence NAK that also acknowledges new PSNs starts a new retry sequence
     * (rxe comp.started_retry); before that fix, reorder=30%/gap:2 ended in RETRY_EXC_ERR after
     * 40 sequence NAKs at message 37.
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "reorder=30%/gap:2/hold:100us,seed=11",
        "reorder=50%/gap:4/hold:100us,seed=12",
    })
    void heavyReorderingAloneNeverExhaustsTheRetryCount(String spec) {
        check(Impairment.parse(spec));
    }

    private static void check(Impairment impairment) {
        SoftDevice dev = FreshDevices.fresh("impair", SoftOptions.defaults().impairment(impairment));
        try (RcPair p = new RcPair(dev, Mtu.MTU_1024, TIMEOUT, 7, 7, 1, (MESSAGES + 1) * SIZE)) {
            SendStream.Result result = SendStream.of(p).run(MESSAGES, SIZE, impairment.seed(), DEADLINE);
            Map<String, Long> hca = p.hca().countersSnapshot();
            Map<String, Long> net = ((ImpairedDatagrams) p.hca().datagrams()).counters();
            String why = "impairment " + impairment + "\n  " + result.line() + "\n  device " + hca + "\n  impaired " + net;

            assertThat(result.perfect(MESSAGES)).as(why).isTrue();
            assertThat(hca.get("retry_exceeded")).as(why).isZero();
            if (impairment.loss() > 0 || !impairment.burst().isOff()) {
                assertThat(net.get("dropped")).as(why).isPositive();
                assertThat(hca.get("retransmitted_packets")).as(why).isPositive();
            }
            if (impairment.duplicate() > 0) {
                assertThat(net.get("duplicated")).as(why).isPositive();
                assertThat(hca.get("duplicate_requests") + hca.get("acks_rcvd")).as(why).isPositive();
            }
            if (impairment.corrupt() >= 0.01) {
                // A flipped bit is caught by the ICRC or an earlier header check, never delivered.
                assertThat(net.get("corrupted")).as(why).isPositive();
                long drops = hca.entrySet().stream().filter(e -> e.getKey().startsWith("drop_"))
                        .mapToLong(Map.Entry::getValue).sum();
                assertThat(drops).as(why).isPositive();
            }
            if (impairment.reorder() > 0) {
                assertThat(net.get("reordered")).as(why).isPositive();
            }
            if (impairment.delayMicros() > 0) {
                assertThat(net.get("delayed")).as(why).isPositive();
            }
        }
    }
}
