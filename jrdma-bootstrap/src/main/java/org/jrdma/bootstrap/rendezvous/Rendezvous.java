package org.jrdma.bootstrap.rendezvous;

import java.util.Map;
import org.jrdma.bootstrap.ConnInfo;

/**
 * One rank's part in one run (epoch) of a job: publish this rank's connection info for each
 * peer, wait for every peer's info for this rank, meet at barriers, leave.
 *
 * <p>Info is addressed: what rank {@code i} publishes for rank {@code j} is read by {@code j}
 * alone, so that each rank reads {@code size - 1} values, not {@code size * (size - 1)}. Every
 * wait is bounded by the spec's deadline, counted from {@link RendezvousStore#join}. A rank that
 * leaves or dies while others wait (on etcd: its lease expires) fails them at once with a
 * {@link MissingRanksException} that names it; ranks that never come are named when the deadline
 * passes.
 *
 * <p>Not thread-safe: one thread drives one rendezvous.
 */
public interface Rendezvous extends AutoCloseable {
    /**
     * The spec this rank joined with.
     *
     * @return the spec
     */
    RendezvousSpec spec();

    /**
     * The run of the job this rank is in. A store gives each run of a job id a new epoch, so
     * that no key of an earlier run is read; it may move every waiting rank to a newer epoch
     * when a rank restarts under the same job id (the rendezvous then publishes again there).
     *
     * @return the epoch, 1 or more
     */
    long epoch();

    /**
     * Publishes this rank's info for each peer. Called once, before {@link #await}.
     *
     * @param forPeers rank to the info that rank is to read; every rank but this one's, once
     * @throws IllegalArgumentException if a rank is missing, out of range or this rank's own
     * @throws IllegalStateException if already published
     * @throws RendezvousException if the store fails
     */
    void publish(Map<Integer, ConnInfo> forPeers);

    /**
     * Waits until every peer has published its info for this rank.
     *
     * @return peer rank to the info it published for this rank, {@code size - 1} entries, in
     *     rank order
     * @throws MissingRanksException if a rank left or died, or the deadline passed first
     * @throws MalformedEntryException if a value in the store is not what this store writes
     * @throws RendezvousException if the store fails
     * @throws IllegalStateException if this rank has not published
     */
    Map<Integer, ConnInfo> await();

    /**
     * Waits until every rank has reached the barrier of this name (within the spec's deadline).
     *
     * @param name 1-64 of {@code [A-Za-z0-9_-]}, distinct per barrier within a run
     * @throws MissingRanksException if a rank left or died, or the deadline passed first
     * @throws RendezvousException if the store fails
     */
    void barrier(String name);

    /**
     * What this rank has asked of the store so far.
     *
     * @return requests and bytes, counted by this rendezvous
     */
    StoreTraffic traffic();

    /** Leaves the run: this rank's keys are removed (on etcd its lease is revoked). Idempotent. */
    @Override
    void close();
}
