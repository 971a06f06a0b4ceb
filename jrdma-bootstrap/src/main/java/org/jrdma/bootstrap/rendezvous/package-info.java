/**
 * Rendezvous of the N ranks of a job: each rank publishes, for every peer, the connection info of
 * the QP it made for that peer, waits for every peer's info for itself, and then connects.
 *
 * <h2>The model every store follows</h2>
 *
 * <ul>
 *   <li><b>Addressed info.</b> Rank {@code i}'s info for rank {@code j} is an entry of its own,
 *       {@code <job>/<epoch>/info/<j>/<i>}, so rank {@code j} reads one prefix of {@code N - 1}
 *       values: per rank the store traffic grows as N, not N²; the store as a whole holds N²
 *       small values. A value is perftest's 108-byte key message ({@link
 *       org.jrdma.bootstrap.PerftestKeyCodec#GID}): LID, QPN, PSN, rkey, address, GID.
 *   <li><b>Epochs.</b> {@code <job>/epoch} names the current run. A rank joins it by creating
 *       {@code <job>/<epoch>/member/<rank>} only if that key does not exist and {@code
 *       <job>/<epoch>/sealed} does not either. If its slot is taken (it is a restart, or the
 *       earlier run's key has not expired) or the run is sealed, it moves the job to epoch + 1 in
 *       one compare-and-swap that also deletes the old epoch's keys, and joins that. Ranks that
 *       were waiting in the old epoch see it change and publish again in the new one. A run is
 *       sealed when its first rank has every peer's info, or when a rank gives up on it, so a
 *       rerun of the same job id never reads an earlier run's values.
 *   <li><b>Liveness.</b> On etcd each rank's keys hang on its lease, kept alive at a third of its
 *       TTL; a dead rank's member key is deleted when the lease expires, and every rank waiting
 *       on it fails at once with a {@link org.jrdma.bootstrap.rendezvous.MissingRanksException}
 *       naming it. Waiting is by watches, never by polling. A directory has no leases: a rank
 *       that dies is named when the deadline passes.
 *   <li><b>Bad values.</b> A value that does not decode is a {@link
 *       org.jrdma.bootstrap.rendezvous.MalformedEntryException} naming the key, raised before
 *       anything is connected.
 * </ul>
 */
package org.jrdma.bootstrap.rendezvous;
