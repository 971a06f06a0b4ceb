package org.jrdma.bench;

/**
 * The jrdma half of each comparison: runs one shape between two processes and returns its
 * figure — {@link ProcessRdmaSide} with {@code jrdma perf}, a fake in tests.
 */
public interface RdmaSide {
    /** Runs the shape once; never throws for a failed or hung run, returns {@link Outcome.Failed}. */
    Outcome run(Shape shape, Budget budget);

    /** One line for the report's header: what ran. */
    String description();
}
