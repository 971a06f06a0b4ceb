package org.jrdma.bootstrap.rendezvous;

import java.net.URI;

/**
 * A kind of store, found by {@link java.util.ServiceLoader}: the file store is built in, etcd's is
 * in module jrdma-etcd, on the class path or module path only where it is wanted.
 */
public interface RendezvousStoreProvider {
    /**
     * The URI scheme this provider opens: {@code etcd}, {@code file}.
     *
     * @return the scheme, lower case
     */
    String scheme();

    /**
     * Opens a store.
     *
     * @param address the store's URI, of this provider's scheme
     * @param options security and timing options
     * @return the open store
     * @throws RendezvousException if it cannot be reached
     * @throws IllegalArgumentException if the URI or options do not fit this store
     */
    RendezvousStore open(URI address, StoreOptions options);
}
