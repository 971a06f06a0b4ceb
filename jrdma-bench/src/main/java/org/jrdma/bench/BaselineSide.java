package org.jrdma.bench;

/** The baseline half of each comparison: {@link ProcessBaselineSide}, or a fake in tests. */
public interface BaselineSide {
    /**
     * Runs the baseline once for a message size; bandwidth baselines use the budget's count
     * (or time) for that size, latency baselines its round trips. Never throws for a failed or
     * hung run.
     */
    Outcome run(Baseline baseline, int sizeBytes, Budget budget);

    String description();
}
