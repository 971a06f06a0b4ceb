package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Map;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.WcStatus;
import org.junit.jupiter.api.Test;

/**
 * REL-15 (d), the RNR storm (slaclab's RoCEv2 FPGA report: minRnrTimer 1 against rxe collapsed
 * throughput): a SEND with no receive, rnr_retry 7 (for ever) and min_rnr_timer 1 (10 µs) is
 * RNR-NAKed and retried as fast as the timer allows, on the same device as another connection
 * streaming SENDs. No livelock: the stream completes whole, the storm's SEND completes once a
 * receive is posted. Figures (throughput with and without the storm, RNR NAKs/s, process CPU)
 * are printed, not asserted: the machine is shared.
 */
class RnrStormTest {
    private static final int MESSAGES = 2000;
    private static final int SIZE = 4096;
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @Test
    void rel15dAnRnrStormDoesNotLivelockTheDevice() {
        SoftDevice dev = FreshDevices.fresh("rnrstorm");
        // A stream leaves spare receives posted (SendStream), so each run gets its own pair.
        try (RcPair warmUp = new RcPair(dev, Mtu.MTU_1024, 14, 7, 7, 12, (MESSAGES + 1) * SIZE);
                RcPair baseline = new RcPair(dev, Mtu.MTU_1024, 14, 7, 7, 12, (MESSAGES + 1) * SIZE);
                RcPair stream = new RcPair(dev, Mtu.MTU_1024, 14, 7, 7, 12, (MESSAGES + 1) * SIZE);
                RcPair storm = new RcPair(dev, Mtu.MTU_1024, 14, 7, 7, 1, 1 << 12)) {
            run(warmUp, 3, "warm-up"); // JIT: otherwise the first run is the slow one
            double quiet = run(baseline, 1, "without storm");

            Map<String, Long> before = stream.hca().countersSnapshot();
            storm.send(1, 0, 64); // no receive posted: RNR NAK, retry after 10 µs, for ever
            RcPair.await(() -> stream.hca().countersSnapshot().get("rnr_naks_sent") - before.get("rnr_naks_sent") > 50,
                    DEADLINE, "the storm to start");
            long cpu0 = cpuNanos();
            long t0 = System.nanoTime();
            long naks0 = stream.hca().countersSnapshot().get("rnr_naks_sent");
            double stormy = run(stream, 2, "during the storm");
            double seconds = (System.nanoTime() - t0) / 1e9;
            long naks = stream.hca().countersSnapshot().get("rnr_naks_sent") - naks0;
            double cpu = (cpuNanos() - cpu0) / 1e9 / seconds;
            assertThat(naks).as("the storm went on during the stream").isPositive();
            assertThat(RcPair.poll(storm.cqA, 1, Duration.ZERO)).as("no receive, no completion (rnr_retry 7)").isEmpty();

            storm.postRecv(2, 0, 64);
            assertThat(RcPair.poll(storm.cqA, 1, DEADLINE)).singleElement()
                    .satisfies(wc -> assertThat(wc.status).isEqualTo(WcStatus.SUCCESS));
            assertThat(RcPair.poll(storm.cqB, 1, DEADLINE)).singleElement()
                    .satisfies(wc -> assertThat(wc.status).isEqualTo(WcStatus.SUCCESS));
            System.out.printf("REL-15d RNR storm (min_rnr_timer 1 = 10 us): stream %.0f MB/s quiet, %.0f MB/s during"
                    + " the storm; %.0f RNR NAKs/s; process CPU %.2f cores%n", quiet, stormy, naks / seconds, cpu);
        }
    }

    private static double run(RcPair p, long seed, String what) {
        long t0 = System.nanoTime();
        SendStream.Result r = SendStream.of(p).run(MESSAGES, SIZE, seed, DEADLINE);
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertThat(r.perfect(MESSAGES)).as("%s: %s", what, r.line()).isTrue();
        return (double) MESSAGES * SIZE / seconds / 1e6;
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }
}
