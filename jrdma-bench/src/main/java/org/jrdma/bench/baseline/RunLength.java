package org.jrdma.bench.baseline;

/**
 * How long a stream runs: a count of messages after a warm-up count, or a time after a
 * warm-up time. Warm-up traffic is sent and received but not measured.
 */
record RunLength(boolean timed, long count, long warmupCount, long nanos, long warmupNanos) {
    static RunLength from(BaselineArgs a) {
        if (a.has("seconds") == a.has("count")) {
            throw new IllegalArgumentException("give exactly one of --seconds and --count");
        }
        if (a.has("seconds")) {
            double s = a.nonNegativeSeconds("seconds", 0);
            if (s == 0) {
                throw new IllegalArgumentException("--seconds must be > 0");
            }
            return new RunLength(true, 0, 0, (long) (s * 1e9), (long) (a.nonNegativeSeconds("warmup-seconds", 0) * 1e9));
        }
        long count = a.nonNegativeLong("count", 0);
        if (count == 0) {
            throw new IllegalArgumentException("--count must be > 0");
        }
        return new RunLength(false, count, a.nonNegativeLong("warmup", 0), 0, 0);
    }
}
