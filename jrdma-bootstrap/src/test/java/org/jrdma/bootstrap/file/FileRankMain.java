package org.jrdma.bootstrap.file;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.rendezvous.Rendezvous;
import org.jrdma.bootstrap.rendezvous.RendezvousSpec;
import org.jrdma.bootstrap.rendezvous.RendezvousStore;
import org.jrdma.bootstrap.rendezvous.RendezvousStores;
import org.jrdma.bootstrap.rendezvous.StoreOptions;

/**
 * One rank in a JVM of its own, for FileStoreTest's two-process case: {@code <store-uri> <job>
 * <rank> <size>}; publishes {@link FileStoreTest#info} for each peer, prints "from=qpn" for what
 * it got, meets at barrier "done". Found through RendezvousStores, as a user's program would.
 */
public final class FileRankMain {
    private FileRankMain() {
    }

    public static void main(String[] args) {
        int rank = Integer.parseInt(args[2]);
        int size = Integer.parseInt(args[3]);
        try (RendezvousStore store = RendezvousStores.open(URI.create(args[0]), StoreOptions.DEFAULTS);
                Rendezvous rv = store.join(new RendezvousSpec(args[1], rank, size, Duration.ofSeconds(60)))) {
            Map<Integer, ConnInfo> mine = new TreeMap<>();
            for (int to = 0; to < size; to++) {
                if (to != rank) {
                    mine.put(to, FileStoreTest.info(rv.epoch(), rank, to));
                }
            }
            rv.publish(mine);
            rv.await().forEach((from, info) -> System.out.println(from + "=" + Integer.toHexString(info.qpn())));
            rv.barrier("done");
            System.out.println("epoch=" + rv.epoch());
        }
    }
}
