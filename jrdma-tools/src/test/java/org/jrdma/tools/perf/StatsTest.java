package org.jrdma.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** perftest's latency and bandwidth arithmetic. */
class StatsTest {
    /** Post times whose consecutive differences are {@code deltasNanos}. */
    static long[] posts(long... deltasNanos) {
        long[] t = new long[deltasNanos.length + 1];
        for (int i = 0; i < deltasNanos.length; i++) {
            t[i + 1] = t[i] + deltasNanos[i];
        }
        return t;
    }

    @Test
    void latencyDropsTheTwoHighestAndIndexesAsPerftest() {
        // 10 round trips of 2..11 µs (shuffled), then two outliers of 100 and 200 µs: 12 samples.
        long[] t = posts(5000, 2000, 9000, 3000, 11000, 4000, 200000, 6000, 7000, 100000, 8000, 10000);
        LatencyStats s = LatencyStats.fromPostTimes(2, 13, t, 13, 2);
        // Sorted: 2..11 µs, 100, 200; n = 10 after the drop; halved for the RTT.
        assertThat(s.minUsec()).isEqualTo(1.0);
        assertThat(s.maxUsec()).isEqualTo(50.0); // sorted[n]: the second highest, as perftest
        assertThat(s.typicalUsec()).isCloseTo(3.25, within(1e-9)); // even n: mean of sorted[4], sorted[5]
        assertThat(s.avgUsec()).isCloseTo(3.25, within(1e-9));
        assertThat(s.stdevUsec()).isCloseTo(Math.sqrt(8.25) / 2, within(1e-9));
        assertThat(s.p99Usec()).isEqualTo(50.0); // ceil(10 × 0.99) = 10
        assertThat(s.p999Usec()).isEqualTo(50.0);
        assertThat(s.iters()).isEqualTo(13);
    }

    @Test
    void readAndAtomicLatencyIsTheWholeRoundTrip() {
        long[] t = posts(4000, 4000, 4000, 4000, 4000, 4000);
        LatencyStats s = LatencyStats.fromPostTimes(8, 7, t, 7, 1);
        assertThat(s.typicalUsec()).isEqualTo(4.0);
        assertThat(s.avgUsec()).isEqualTo(4.0);
        assertThat(s.stdevUsec()).isZero();
    }

    @Test
    void oddSampleCountTakesTheMiddle() {
        long[] t = posts(1000, 3000, 2000, 9000, 9000); // 5 samples, n = 3: 1, 2, 3 µs
        assertThat(LatencyStats.fromPostTimes(2, 6, t, 6, 1).typicalUsec()).isEqualTo(2.0);
    }

    @Test
    void durationRowIsMeanAndRate() {
        LatencyStats s = LatencyStats.fromDuration(2, 1000, 2_000_000_000L, 2);
        assertThat(s.avgUsec()).isEqualTo(1000.0);
        assertThat(s.tps()).isEqualTo(500.0);
    }

    @Test
    void bandwidthAverageAndPeak() {
        // 4 iterations of 1 MiB posted at 0, 1, 2, 3 ms; signaled completions of 1 at 2 ms and of 3 at 4 ms.
        long ms = 1_000_000;
        long[] posted = {0, ms, 2 * ms, 3 * ms};
        long[] doneIndex = {1, 3};
        long[] doneNanos = {2 * ms, 4 * ms};
        BwReport r = BwStats.report(1 << 20, 4, posted, doneIndex, doneNanos, 2, 0, 4 * ms, false);
        assertThat(r.bwAvg()).isCloseTo(1000.0, within(1e-9)); // 4 MiB in 4 ms
        assertThat(r.msgRateMpps()).isCloseTo(0.001, within(1e-12));
        // Fastest stretch: post 2 at 2 ms → completion of 3 at 4 ms, 2 messages: 1 ms each → 1000 MiB/s;
        // post 3 → completion 3: 1 ms for 1. Post 1 → completion 1 at 2 ms: 1 ms for 1.
        assertThat(r.bwPeak()).isCloseTo(1000.0, within(1e-9));
        BwReport g = BwStats.report(1 << 20, 4, posted, doneIndex, doneNanos, 2, 0, 4 * ms, true);
        assertThat(g.bwAvg()).isCloseTo(4.0 * (1 << 20) * 8 / 4e-3 / 1e9, within(1e-9));
    }

    @Test
    void peakIgnoresCompletionsBeforeThePostAndOrder() {
        long[] posted = {0, 10, 20, 30};
        long[] doneIndex = {3, 0}; // out of iteration order, as with several QPs
        long[] doneNanos = {40, 5};
        assertThat(BwStats.fastestNanosPerMessage(posted, 4, doneIndex, doneNanos, 2)).isEqualTo(5.0);
    }

    @Test
    void withoutPerIterationTimesThereIsNoPeak() {
        BwReport r = BwStats.report(4096, 100, null, null, null, 0, 0, 1_000_000_000L, false);
        assertThat(r.bwPeak()).isZero();
        assertThat(r.bwAvg()).isCloseTo(4096.0 * 100 / 0x100000, within(1e-9));
    }
}
