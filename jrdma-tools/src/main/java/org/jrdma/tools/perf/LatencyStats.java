package org.jrdma.tools.perf;

import java.util.Arrays;

/**
 * One latency row, computed as perftest's print_report_lat does (ROCEV2-FACTS §6.4), in our
 * own code: the samples are the times between consecutive posts ({@code iters − 1} of them, each
 * one round trip with the loop around it), sorted; the {@value #TAIL} highest are dropped
 * (LAT_MEASURE_TAIL) and the median ("typical"), mean and population standard deviation are
 * taken over the rest. As in perftest, t_max and the percentiles index the sorted array after
 * the drop: t_max is {@code sorted[n]} with {@code n = count − 2} (so the second highest
 * sample), the 99% and 99.9% points {@code sorted[ceil(n·0.99)]} and {@code sorted[ceil(n·0.999)]}.
 * Every value is divided by the RTT factor: 2 for SEND/WRITE ping-pongs, 1 for READ/atomics.
 *
 * @param tps transactions per second (the {@code -D} row), else 0
 */
record LatencyStats(int size, long iters, double minUsec, double maxUsec, double typicalUsec, double avgUsec,
        double stdevUsec, double p99Usec, double p999Usec, double tps) {
    static final int TAIL = 2;

    /** From the post times of {@code count} iterations (nanoseconds). */
    static LatencyStats fromPostTimes(int size, long iters, long[] postNanos, int count, int rttFactor) {
        int samples = Math.max(0, count - 1);
        if (samples == 0) {
            return new LatencyStats(size, iters, 0, 0, 0, 0, 0, 0, 0, 0);
        }
        long[] delta = new long[samples];
        for (int i = 0; i < samples; i++) {
            delta[i] = postNanos[i + 1] - postNanos[i];
        }
        Arrays.sort(delta);
        int n = samples > TAIL ? samples - TAIL : samples;
        double unit = 1000.0 * rttFactor;
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += delta[i] / unit;
        }
        double avg = sum / n;
        double var = 0;
        for (int i = 0; i < n; i++) {
            double d = avg - delta[i] / unit;
            var += d * d;
        }
        // get_median: an even count averages the two middle samples (integer cycles in perftest).
        double median = (n - 1) % 2 != 0 ? ((delta[n / 2] + delta[n / 2 - 1]) / 2) / unit : delta[n / 2] / unit;
        int top = Math.min(n, samples - 1);
        int i99 = Math.min((int) Math.ceil(n * 0.99), samples - 1);
        int i999 = Math.min((int) Math.ceil(n * 0.999), samples - 1);
        return new LatencyStats(size, iters, delta[0] / unit, delta[top] / unit, median, avg, Math.sqrt(var / n),
                delta[i99] / unit, delta[i999] / unit, 0);
    }

    /**
     * perftest's {@code -H} samples: the same deltas as {@link #fromPostTimes}, sorted, without
     * the two highest (LAT_MEASURE_TAIL), in microseconds.
     */
    static double[] sortedSamplesUsec(long[] postNanos, int count, int rttFactor) {
        int samples = Math.max(0, count - 1);
        long[] delta = new long[samples];
        for (int i = 0; i < samples; i++) {
            delta[i] = postNanos[i + 1] - postNanos[i];
        }
        Arrays.sort(delta);
        int n = samples > TAIL ? samples - TAIL : samples;
        double unit = 1000.0 * rttFactor;
        double[] usec = new double[n];
        for (int i = 0; i < n; i++) {
            usec[i] = delta[i] / unit;
        }
        return usec;
    }

    /** The {@code -D} row: mean latency and transactions per second over the whole run. */
    static LatencyStats fromDuration(int size, long iters, long totalNanos, int rttFactor) {
        if (iters == 0 || totalNanos <= 0) {
            return new LatencyStats(size, iters, 0, 0, 0, 0, 0, 0, 0, 0);
        }
        double avg = totalNanos / 1000.0 / rttFactor / iters;
        double tps = iters / (totalNanos / 1e9);
        return new LatencyStats(size, iters, 0, 0, 0, avg, 0, 0, 0, tps);
    }
}
