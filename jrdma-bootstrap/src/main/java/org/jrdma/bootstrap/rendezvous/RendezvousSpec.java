package org.jrdma.bootstrap.rendezvous;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;
import org.jrdma.bootstrap.Excerpt;
import org.jrdma.bootstrap.InvalidFieldException;

/**
 * Who is joining which job: the job id that names the run in the store, this process's rank, the
 * job's size, and how long the whole rendezvous may take.
 *
 * <p>The job id is 1-128 of {@code [A-Za-z0-9._-]}, not starting with '.', so that it is one path
 * segment of a key or a file name and nothing else.
 *
 * @param job the job id; runs of the same job id are told apart by the store's epochs
 * @param rank this process's rank, {@code 0 <= rank < size}
 * @param size the number of ranks in the job, 1 to {@value #MAX_SIZE}
 * @param timeout the deadline of the whole rendezvous, from {@link RendezvousStore#join} to the
 *     last peer's info; positive
 */
public record RendezvousSpec(String job, int rank, int size, Duration timeout) {
    /** The largest job: 1,048,576 ranks. */
    public static final int MAX_SIZE = 1 << 20;
    /** The deadline unless told otherwise: 60 s. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    private static final Pattern JOB = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}");

    /**
     * Checks the fields.
     *
     * @throws InvalidFieldException if the job id, rank or size is out of range
     * @throws IllegalArgumentException if the timeout is not positive
     */
    public RendezvousSpec {
        Objects.requireNonNull(job, "job");
        if (!JOB.matcher(job).matches()) {
            throw new InvalidFieldException("job", Excerpt.of(job) + " is not 1-128 of [A-Za-z0-9._-], not starting with '.'");
        }
        if (size < 1 || size > MAX_SIZE) {
            throw new InvalidFieldException("size", size + " is not 1.." + MAX_SIZE);
        }
        if (rank < 0 || rank >= size) {
            throw new InvalidFieldException("rank", rank + " is not 0.." + (size - 1) + " for a job of " + size);
        }
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be a positive duration, not " + timeout);
        }
    }

    /**
     * A spec with the {@linkplain #DEFAULT_TIMEOUT default deadline}.
     *
     * @param job the job id
     * @param rank this process's rank
     * @param size the number of ranks
     * @return the spec
     */
    public static RendezvousSpec of(String job, int rank, int size) {
        return new RendezvousSpec(job, rank, size, DEFAULT_TIMEOUT);
    }

    /**
     * This spec with another deadline.
     *
     * @param deadline the new deadline, positive
     * @return a new spec
     */
    public RendezvousSpec withTimeout(Duration deadline) {
        return new RendezvousSpec(job, rank, size, deadline);
    }
}
