package org.jrdma.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.rendezvous.MissingRanksException;
import org.jrdma.bootstrap.rendezvous.Rendezvous;
import org.jrdma.bootstrap.rendezvous.RendezvousSpec;
import org.jrdma.bootstrap.rendezvous.RendezvousStore;
import org.jrdma.bootstrap.rendezvous.RendezvousStores;
import org.jrdma.bootstrap.rendezvous.StoreOptions;
import org.jrdma.bootstrap.rendezvous.StoreUnavailableException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A store that goes down: every request and wait ends within its deadline, never a hang. */
class StoreFailureTest {
    private static final Duration REQUEST = Duration.ofSeconds(1);
    private static final StoreOptions OPTIONS = StoreOptions.DEFAULTS.withLeaseTtl(Duration.ofSeconds(2)).withRequestTimeout(REQUEST);
    private static final Duration LONG = Duration.ofSeconds(60);
    private EtcdServer etcd;
    private RendezvousStore store;

    @BeforeEach
    void start() throws Exception {
        etcd = EtcdServer.start();
        store = RendezvousStores.open(URI.create(etcd.endpoint()), OPTIONS);
    }

    @AfterEach
    void stop() {
        if (store != null) {
            store.close();
        }
        if (etcd != null) {
            etcd.close();
        }
    }

    private static Duration since(long start) {
        return Duration.ofNanos(System.nanoTime() - start);
    }

    @Test
    void joiningAStoppedStoreFailsWithinTheRequestDeadline() {
        etcd.stop();
        long start = System.nanoTime();
        assertThatThrownBy(() -> store.join(new RendezvousSpec("down", 0, 2, LONG)))
                .isInstanceOfSatisfying(StoreUnavailableException.class, e -> {
                    assertThat(e.address()).isEqualTo(etcd.endpoint());
                    assertThat(e.getMessage()).contains(etcd.endpoint(), "rank 0");
                });
        assertThat(since(start)).isLessThan(REQUEST.multipliedBy(4));
    }

    @Test
    void publishingToAStoppedStoreFailsWithinTheRequestDeadline() {
        Rendezvous r = store.join(new RendezvousSpec("down-publish", 0, 2, LONG));
        etcd.stop();
        long start = System.nanoTime();
        assertThatThrownBy(() -> r.publish(Ranks.forPeers(1, 0, 2)))
                .isInstanceOfSatisfying(StoreUnavailableException.class,
                        e -> assertThat(e.getMessage()).contains("publishing rank 0's info")
                        // the cause, whichever the kill raced with
                        .containsPattern("Connection (refused|reset)|no answer within"));
        assertThat(since(start)).isLessThan(REQUEST.multipliedBy(4));
        r.close(); // the store is gone: close does not hang or throw either
    }

    @Test
    void awaitingOnAStoreThatStopsFailsLongBeforeTheDeadline() {
        Rendezvous r = store.join(new RendezvousSpec("down-await", 0, 2, LONG));
        r.publish(Ranks.forPeers(1, 0, 2));
        etcd.stop();
        long start = System.nanoTime();
        assertThatThrownBy(r::await).isInstanceOf(StoreUnavailableException.class);
        // the keep-alive period (a third of 2 s) and one request deadline, with room
        assertThat(since(start)).isLessThan(Duration.ofSeconds(8));
    }

    @Test
    void aLiveStoreIsNotTakenForADeadOneOverAWaitOfManyKeepAlives() {
        // 6 s is several keep-alive periods of a 2 s lease and the 1 s request deadline: the store
        // answers keep-alives all along, so the wait ends at the deadline naming rank 1
        Rendezvous r = store.join(new RendezvousSpec("alive", 0, 2, Duration.ofSeconds(6)));
        r.publish(Ranks.forPeers(1, 0, 2));
        assertThatThrownBy(r::await).isInstanceOfSatisfying(MissingRanksException.class,
                e -> assertThat(e.neverCame()).containsExactly(1));
    }

    @Test
    void openingAStoppedStoreFails() {
        etcd.stop();
        long start = System.nanoTime();
        assertThatThrownBy(() -> RendezvousStores.open(URI.create(etcd.endpoint()), OPTIONS))
                .isInstanceOfSatisfying(StoreUnavailableException.class, e -> assertThat(e.getMessage()).contains("connecting"));
        assertThat(since(start)).isLessThan(REQUEST.multipliedBy(4));
    }

    @Test
    void theStoreServesAgainOnceEtcdIsBack() throws Exception {
        etcd.restart();
        try (Rendezvous r0 = store.join(new RendezvousSpec("back", 0, 2, LONG));
                Rendezvous r1 = store.join(new RendezvousSpec("back", 1, 2, LONG))) {
            r0.publish(Ranks.forPeers(1, 0, 2));
            r1.publish(Ranks.forPeers(1, 1, 2));
            Map<Integer, ConnInfo> got = r1.await();
            assertThat(got).containsExactlyEntriesOf(Ranks.expectedFor(1, 1, 2));
        }
    }
}
