package org.jrdma.bootstrap.rendezvous;

/**
 * A place where the ranks of a job meet: etcd for clusters ({@code etcd://host:port}, module
 * jrdma-etcd), a shared directory ({@code file:///path}). Opened by {@link RendezvousStores#open}.
 * Thread-safe: several ranks (threads) may join through one store.
 */
public interface RendezvousStore extends AutoCloseable {
    /**
     * Where this store is, for messages: {@code etcd://127.0.0.1:2379}, {@code file:///shared/dir}.
     *
     * @return the store's address
     */
    String address();

    /**
     * Joins the current run of the job as the spec's rank, or a new run when the current one is
     * sealed or already has this rank. Returns once this rank holds its slot in an epoch; the
     * spec's deadline starts here.
     *
     * @param spec job, rank, size and deadline
     * @return this rank's rendezvous
     * @throws RendezvousException if the store fails or the deadline passes first
     */
    Rendezvous join(RendezvousSpec spec);

    /** Closes the store's connections; rendezvous still open through it fail. Idempotent. */
    @Override
    void close();
}
