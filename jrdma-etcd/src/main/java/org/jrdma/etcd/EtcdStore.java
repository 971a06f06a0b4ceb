package org.jrdma.etcd;

import io.etcd.jetcd.Client;
import io.etcd.jetcd.options.GetOption;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jrdma.bootstrap.rendezvous.Rendezvous;
import org.jrdma.bootstrap.rendezvous.RendezvousSpec;
import org.jrdma.bootstrap.rendezvous.RendezvousStore;
import org.jrdma.bootstrap.rendezvous.StoreOptions;

/**
 * An etcd cluster as a rendezvous store: one jetcd client, shared by the ranks (threads) that join
 * through it; each rank has its own lease, watch and counters.
 */
final class EtcdStore implements RendezvousStore {
    private final String address;
    private final Client client;
    private final StoreOptions options;
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * Takes over a client and checks that the store answers (and takes the credentials) with one
     * read, so that a wrong address or password fails here rather than in the first rank's join.
     */
    EtcdStore(String address, Client client, StoreOptions options) {
        this.address = address;
        this.client = client;
        this.options = options;
        try {
            String probe = "/jrdma/";
            new Requests(address, options.requestTimeout()).call("connecting", probe.length(),
                    client.getKVClient().get(Keys.bytes(probe), GetOption.builder().withCountOnly(true).build()));
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
    }

    @Override
    public String address() {
        return address;
    }

    @Override
    public Rendezvous join(RendezvousSpec spec) {
        if (closed.get()) {
            throw new IllegalStateException("store " + address + " is closed");
        }
        return new EtcdRendezvous(client, address, options, spec);
    }

    /** Closes the client without revoking the ranks' leases: a rank not closed is left to its TTL, as if it died. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            client.close();
        }
    }

    @Override
    public String toString() {
        return "EtcdStore[" + address + "]";
    }
}
