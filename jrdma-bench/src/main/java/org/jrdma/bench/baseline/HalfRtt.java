package org.jrdma.bench.baseline;

import java.util.Arrays;

/**
 * One-way latency as half the round trip (what perftest's send_lat and write_lat report), from
 * round-trip times in nanoseconds. p50 is the median, perftest's t_typical.
 */
final class HalfRtt {
    private HalfRtt() {
    }

    /** Sorts {@code rttNanos} in place and adds the half-RTT figures, in µs, to the line. */
    static JsonLine summarize(long[] rttNanos, JsonLine line) {
        if (rttNanos.length == 0) {
            throw new IllegalArgumentException("no round trips measured");
        }
        Arrays.sort(rttNanos);
        double sum = 0;
        for (long r : rttNanos) {
            sum += r;
        }
        return line.put("halfRttMinUs", halfUs(rttNanos[0]))
                .put("halfRttP50Us", halfUs(percentile(rttNanos, 0.50)))
                .put("halfRttAvgUs", sum / rttNanos.length / 2e3)
                .put("halfRttP99Us", halfUs(percentile(rttNanos, 0.99)))
                .put("halfRttP999Us", halfUs(percentile(rttNanos, 0.999)))
                .put("halfRttMaxUs", halfUs(rttNanos[rttNanos.length - 1]));
    }

    /** Nearest-rank percentile of a sorted array. */
    static long percentile(long[] sorted, double p) {
        int rank = (int) Math.ceil(p * sorted.length);
        return sorted[Math.clamp(rank - 1, 0, sorted.length - 1)];
    }

    private static double halfUs(long rttNanos) {
        return rttNanos / 2e3;
    }
}
