package org.jrdma.tools.demo;

/**
 * The data phase's figures, rc_pingpong's way: {@code bytes} counts both directions
 * (size × iters × 2); latency is one-way, i.e. half of each measured round trip.
 */
public record DataResult(long iters, int size, long bytes, long nanos, double p50Micros, double p99Micros,
        double avgMicros, double minMicros, long verifiedMessages) {
    public double seconds() {
        return nanos / 1e9;
    }

    public double mibPerSecond() {
        return bytes / seconds() / (1 << 20);
    }

    public double mbitPerSecond() {
        return bytes * 8 / (nanos / 1e3);
    }

    public double microsPerIter() {
        return nanos / 1e3 / iters;
    }
}
