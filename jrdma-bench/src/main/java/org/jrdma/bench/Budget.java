package org.jrdma.bench;

import java.time.Duration;

/**
 * How much each run moves and how long it may take. Bandwidth runs move a count of messages
 * (about {@code bwBytes}, clamped to {@code bwMinIters..bwMaxIters} messages), the same count
 * on both sides, or, with {@code bwSeconds > 0}, run for a time (jrdma perf {@code -D}).
 * Latency runs make {@code latIters} round trips. Both sides add a warm-up, not measured: the
 * baselines their own, jrdma perf through its {@code --warmup} (perftest has none; a JVM
 * measured cold measures its compiler). A bandwidth run's is a fifth of its messages; a latency
 * run's is {@link #latWarmup()}, six times its round trips up to 300,000: on a 2-core machine
 * C2 was still compiling the data path 5 s into a send_lat run, and a warm-up of a fifth
 * (10,000 round trips, 0.15 s) measured the compiler's preemptions as a p99 of 2.5 ms where the
 * warm path's is 41 µs. Timed runs have none.
 *
 * @param fixedTimeout every pair of processes is killed after this long; null: computed per shape
 */
public record Budget(long bwBytes, int bwMinIters, int bwMaxIters, int bwSeconds, int latIters, Duration fixedTimeout) {
    public static Budget standard() {
        return new Budget(2L << 30, 2_000, 500_000, 0, 50_000, null);
    }

    public static Budget quick() {
        return new Budget(512L << 20, 500, 100_000, 0, 5_000, null);
    }

    public Budget withBwSeconds(int seconds) {
        return new Budget(bwBytes, bwMinIters, bwMaxIters, seconds, latIters, fixedTimeout);
    }

    public Budget withLatIters(int iters) {
        return new Budget(bwBytes, bwMinIters, bwMaxIters, bwSeconds, iters, fixedTimeout);
    }

    public Budget withTimeout(Duration timeout) {
        return new Budget(bwBytes, bwMinIters, bwMaxIters, bwSeconds, latIters, timeout);
    }

    public boolean bwTimed() {
        return bwSeconds > 0;
    }

    /** Messages per bandwidth run of this size (count mode). */
    public int bwIters(int sizeBytes) {
        return Math.clamp(bwBytes / sizeBytes, bwMinIters, bwMaxIters);
    }

    /**
     * How many times more a memory-speed run moves ({@code --provider shm} and its
     * MemorySegment.copy baseline): 2 GiB is 0.1 s at 20 GB/s, and its warm-up of a fifth is over
     * before C2 has compiled the data path — the copy's one loop is compiled at once, perf's is
     * not, so the short run measured the compiler (0.32× at 64 KiB where 32 GiB gives ~0.6×).
     */
    public static final int MEMORY_SPEED_FACTOR = 16;

    /** Messages per bandwidth run of this size; {@code memorySpeed} runs move {@link #MEMORY_SPEED_FACTOR} × more. */
    public int bwIters(int sizeBytes, boolean memorySpeed) {
        if (!memorySpeed) {
            return bwIters(sizeBytes);
        }
        long factor = MEMORY_SPEED_FACTOR;
        return (int) Math.clamp(bwBytes * factor / sizeBytes, bwMinIters, (long) bwMaxIters * factor);
    }

    /** Iterations a bandwidth run makes before it starts measuring. */
    public static long warmupOf(long iters) {
        return Math.max(1, iters / 5);
    }

    /** The most round trips a latency run makes before it starts measuring. */
    static final long LAT_WARMUP_MAX = 300_000;

    /** Round trips both sides of a latency run make before they start measuring. */
    public long latWarmup() {
        return Math.max(warmupOf(latIters), Math.min(LAT_WARMUP_MAX, 6L * latIters));
    }

    /** Seconds a timed baseline runs before it starts measuring. */
    public double bwWarmupSeconds() {
        return Math.min(1.0, bwSeconds / 3.0);
    }

    /** The deadline for one pair of processes (server and client), from the server's start. */
    public Duration timeout(Kind kind, int sizeBytes) {
        if (fixedTimeout != null) {
            return fixedTimeout;
        }
        long seconds;
        if (kind == Kind.LATENCY) {
            seconds = 60 + latIters / 1_000;                          // 1 ms per round trip
        } else if (bwTimed()) {
            seconds = 60 + 3L * bwSeconds;
        } else {
            long iters = bwIters(sizeBytes);
            seconds = 60 + iters * (long) sizeBytes / (10L << 20) + iters / 20_000; // 10 MiB/s, 50 µs per message
        }
        return Duration.ofSeconds(seconds);
    }
}
