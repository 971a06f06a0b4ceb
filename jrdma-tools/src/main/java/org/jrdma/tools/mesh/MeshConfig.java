package org.jrdma.tools.mesh;

import java.net.URI;
import org.jrdma.bootstrap.rendezvous.RendezvousSpec;
import org.jrdma.bootstrap.rendezvous.StoreOptions;

/**
 * One rank's run of {@code jrdma mesh}, as the command line gave it.
 *
 * @param store the store's URI
 * @param spec job, rank, size and the rendezvous deadline
 * @param options the store's security and timing options
 * @param device the device's name, null for the first
 * @param gidIndex the GID index
 * @param slot bytes written to each peer
 * @param qpTimeout the QPs' local ACK timeout exponent (4.096 µs × 2^t, perftest's -u)
 */
record MeshConfig(URI store, RendezvousSpec spec, StoreOptions options, String device, int gidIndex, int slot, int qpTimeout) {
    int rank() {
        return spec.rank();
    }

    int size() {
        return spec.size();
    }

    /** The same run on another device (null: the first). */
    MeshConfig onDevice(String name) {
        return new MeshConfig(store, spec, options, name, gidIndex, slot, qpTimeout);
    }

    /** The same run as another rank. */
    MeshConfig asRank(int rank) {
        return new MeshConfig(store, new RendezvousSpec(spec.job(), rank, spec.size(), spec.timeout()), options, device, gidIndex,
                slot, qpTimeout);
    }
}
