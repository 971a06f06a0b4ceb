package org.jrdma.etcd;

import java.net.URI;
import java.time.Duration;
import org.jrdma.bootstrap.rendezvous.Rendezvous;
import org.jrdma.bootstrap.rendezvous.RendezvousSpec;
import org.jrdma.bootstrap.rendezvous.RendezvousStore;
import org.jrdma.bootstrap.rendezvous.RendezvousStores;
import org.jrdma.bootstrap.rendezvous.StoreOptions;

/**
 * A rank caught mid-set-up, for MeshProcessesTest: {@code <store> <job> <rank> <size> <lease-ms> <request-ms>}
 * joins, says {@code joined epoch E}, and then hangs before publishing until it is killed —
 * where a real rank would be creating its QPs. It makes "killed mid-setup" deterministic.
 */
public final class HangingRank {
    private HangingRank() {
    }

    public static void main(String[] args) throws Exception {
        RendezvousStore store = RendezvousStores.open(URI.create(args[0]),
                StoreOptions.DEFAULTS.withLeaseTtl(Duration.ofMillis(Long.parseLong(args[4])))
                        .withRequestTimeout(Duration.ofMillis(Long.parseLong(args[5]))));
        Rendezvous rv = store.join(new RendezvousSpec(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]),
                Duration.ofMinutes(5)));
        System.out.println("joined epoch " + rv.epoch());
        System.out.flush();
        System.in.read(); // until SIGKILL (or the test closes our stdin)
    }
}
