package org.jrdma.bootstrap.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.PerftestKeyCodec;
import org.jrdma.bootstrap.rendezvous.MalformedEntryException;
import org.jrdma.bootstrap.rendezvous.MissingRanksException;
import org.jrdma.bootstrap.rendezvous.Rendezvous;
import org.jrdma.bootstrap.rendezvous.RendezvousSpec;
import org.jrdma.bootstrap.rendezvous.RendezvousStore;
import org.jrdma.bootstrap.rendezvous.RendezvousStores;
import org.jrdma.bootstrap.rendezvous.StoreOptions;
import org.jrdma.bootstrap.rendezvous.StoreTraffic;
import org.jrdma.bootstrap.rendezvous.StoreUnavailableException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The directory store's barriers, traffic counts, close and options. */
class FileStoreRulesTest {
    private static final Duration LONG = Duration.ofSeconds(60);
    private static final long WAIT_SECONDS = 60;

    @TempDir
    Path dir;

    private RendezvousStore store;
    private ExecutorService ranks;

    @BeforeEach
    void open() {
        store = RendezvousStores.open(URI.create("file://" + dir.toAbsolutePath()), StoreOptions.DEFAULTS);
        ranks = Executors.newCachedThreadPool();
    }

    @AfterEach
    void close() {
        ranks.shutdownNow();
        store.close();
    }

    private static Map<Integer, ConnInfo> forPeers(int rank, int size) {
        Map<Integer, ConnInfo> m = new TreeMap<>();
        for (int to = 0; to < size; to++) {
            if (to != rank) {
                m.put(to, FileStoreTest.info(1, rank, to));
            }
        }
        return m;
    }

    @Test
    void theStoreIsFoundByItsSchemeAndNamesItsDirectory() {
        assertThat(store).isInstanceOf(FileStore.class);
        assertThat(store.address()).isEqualTo(dir.toUri().toString());
    }

    @Test
    void noRankLeavesABarrierBeforeEveryRankHasReachedIt() throws Exception {
        int size = 4;
        List<Future<List<String>>> all = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            int rank = r;
            all.add(ranks.submit(() -> {
                try (Rendezvous rv = store.join(new RendezvousSpec("meet", rank, size, LONG))) {
                    rv.publish(forPeers(rank, size));
                    rv.await();
                    rv.barrier("b1");
                    // what the barrier directory held the moment this rank was let through
                    try (Stream<Path> at = Files.list(dir.resolve("meet/1/barrier/b1"))) {
                        return at.map(p -> p.getFileName().toString()).sorted().toList();
                    }
                }
            }));
        }
        for (Future<List<String>> f : all) {
            assertThat(f.get(WAIT_SECONDS, TimeUnit.SECONDS)).containsExactly("0", "1", "2", "3");
        }
    }

    @Test
    void aRankThatNeverReachesTheBarrierIsNamedAtTheDeadline() throws Exception {
        int size = 3;
        Duration deadline = Duration.ofSeconds(3);
        Rendezvous two = store.join(new RendezvousSpec("stuck", 2, size, deadline));
        List<Future<Void>> waiting = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            int rank = r;
            waiting.add(ranks.submit(() -> {
                try (Rendezvous rv = store.join(new RendezvousSpec("stuck", rank, size, deadline))) {
                    rv.publish(forPeers(rank, size));
                    rv.await();
                    rv.barrier("b1");
                    return null;
                }
            }));
        }
        // rank 2 exchanges its info but stays away from the barrier, without leaving
        two.publish(forPeers(2, size));
        assertThat(two.await()).containsOnlyKeys(0, 1);
        for (Future<Void> f : waiting) {
            assertThatThrownBy(() -> f.get(WAIT_SECONDS, TimeUnit.SECONDS)).cause()
                    .isInstanceOfSatisfying(MissingRanksException.class, e -> {
                        assertThat(e.neverCame()).containsExactly(2);
                        assertThat(e.departed()).isEmpty();
                        assertThat(e).hasMessageContaining("barrier b1");
                    });
        }
        two.close();
    }

    @Test
    void trafficCountsFileOperationsAndTheValueBytes() throws Exception {
        int size = 4;
        List<Future<StoreTraffic>> all = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            int rank = r;
            all.add(ranks.submit(() -> {
                try (Rendezvous rv = store.join(new RendezvousSpec("count", rank, size, LONG))) {
                    assertThat(rv.traffic().bytesSent()).isZero();
                    rv.publish(forPeers(rank, size));
                    rv.await();
                    return rv.traffic();
                }
            }));
        }
        long value = PerftestKeyCodec.GID.size();
        assertThat(value).isEqualTo(108);
        for (Future<StoreTraffic> f : all) {
            StoreTraffic t = f.get(WAIT_SECONDS, TimeUnit.SECONDS);
            // one value written per peer and one read from each: N - 1 each way, not N²
            assertThat(t.bytesSent()).isEqualTo((size - 1) * value);
            assertThat(t.bytesReceived()).isEqualTo((size - 1) * value);
            // at least: the slot, a write and rename per peer, a read per peer
            assertThat(t.requests()).isGreaterThanOrEqualTo(1 + 2L * (size - 1) + (size - 1));
        }
    }

    @Test
    void closeRemovesTheSlotOnceAndLeavesATombstone() {
        Rendezvous zero = store.join(new RendezvousSpec("bye", 0, 2, LONG));
        Path slot = dir.resolve("bye/1/member/0");
        assertThat(slot).exists();
        zero.close();
        assertThat(slot).doesNotExist();
        assertThat(dir.resolve("bye/1/left/0")).exists();
        long requests = zero.traffic().requests();
        zero.close();
        assertThat(zero.traffic().requests()).as("a second close does nothing").isEqualTo(requests);
        assertThatThrownBy(() -> zero.publish(forPeers(0, 2))).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aRankThatClosedAndComesBackIsNotNamedAsDeparted() throws Exception {
        store.join(new RendezvousSpec("back", 1, 2, LONG)).close();
        // its slot in run 1 is free again and run 1 is not sealed: the new life takes it
        Rendezvous again = store.join(new RendezvousSpec("back", 1, 2, LONG));
        assertThat(again.epoch()).isEqualTo(1);
        assertThat(dir.resolve("back/1/left/1")).doesNotExist();
        Future<Map<Integer, ConnInfo>> zero = ranks.submit(() -> {
            try (Rendezvous rv = store.join(new RendezvousSpec("back", 0, 2, LONG))) {
                rv.publish(forPeers(0, 2));
                return rv.await();
            }
        });
        again.publish(forPeers(1, 2));
        assertThat(again.await()).isEqualTo(Map.of(0, FileStoreTest.info(1, 0, 1)));
        assertThat(zero.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo(Map.of(1, FileStoreTest.info(1, 1, 0)));
        again.close();
    }

    @Test
    void aRunMadeByHandWithoutSlotsIsAMalformedEntryNotALoop() throws Exception {
        Files.createDirectories(dir.resolve("odd/1/info"));
        RendezvousSpec spec = new RendezvousSpec("odd", 0, 2, Duration.ofSeconds(2));
        assertThatThrownBy(() -> store.join(spec)).isInstanceOfSatisfying(MalformedEntryException.class,
                e -> assertThat(e.key()).isEqualTo(dir.resolve("odd/1/member").toString()));
    }

    @Test
    void closingTheStoreFailsTheRendezvousWaitingThroughIt() throws Exception {
        RendezvousStore other = RendezvousStores.open(dir.toUri(), StoreOptions.DEFAULTS);
        Rendezvous zero = other.join(new RendezvousSpec("shut", 0, 2, LONG));
        zero.publish(forPeers(0, 2));
        Future<Map<Integer, ConnInfo>> waiting = ranks.submit(zero::await);
        FileStoreTest.awaitFile(dir.resolve("shut/1/info/1/0"));
        other.close();
        // well within the 60 s deadline: the store's close is noticed, not waited out
        assertThatThrownBy(() -> waiting.get(20, TimeUnit.SECONDS)).cause()
                .isInstanceOf(StoreUnavailableException.class).hasMessageContaining("closed");
        assertThatThrownBy(() -> other.join(new RendezvousSpec("shut", 1, 2, LONG)))
                .isInstanceOf(IllegalStateException.class);
        other.close();
        zero.close();
    }

    @Test
    void aDirectoryRefusesTls() {
        URI uri = dir.toUri();
        assertThatThrownBy(() -> RendezvousStores.open(uri, StoreOptions.DEFAULTS.withTls(dir.resolve("ca.pem"), null, null)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no TLS");
        assertThatThrownBy(() -> RendezvousStores.open(uri,
                StoreOptions.DEFAULTS.withTls(null, dir.resolve("c.pem"), dir.resolve("k.pem"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no TLS");
    }

    @Test
    void aFileUriWithAHostIsRefused() {
        assertThatThrownBy(() -> new FileStoreProvider().open(URI.create("file://somehost/tmp/x"), StoreOptions.DEFAULTS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("file:///");
    }
}
