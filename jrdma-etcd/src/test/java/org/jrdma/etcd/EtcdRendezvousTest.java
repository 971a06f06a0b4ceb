package org.jrdma.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.rendezvous.MalformedEntryException;
import org.jrdma.bootstrap.rendezvous.MissingRanksException;
import org.jrdma.bootstrap.rendezvous.Rendezvous;
import org.jrdma.bootstrap.rendezvous.RendezvousSpec;
import org.jrdma.bootstrap.rendezvous.RendezvousStore;
import org.jrdma.bootstrap.rendezvous.RendezvousStores;
import org.jrdma.bootstrap.rendezvous.StoreOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The rendezvous model on a real etcd, one server for the class, a job id per test. */
class EtcdRendezvousTest {
    private static final Duration SHORT = Duration.ofSeconds(2);
    private static final StoreOptions OPTIONS = StoreOptions.DEFAULTS.withLeaseTtl(Duration.ofSeconds(2))
            .withRequestTimeout(Duration.ofSeconds(2));
    private static EtcdServer etcd;
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private final ExecutorService pool = Ranks.threads();

    @BeforeAll
    static void startEtcd() throws Exception {
        etcd = EtcdServer.start();
    }

    @AfterAll
    static void stopEtcd() {
        if (etcd != null) {
            etcd.close();
        }
    }

    @AfterEach
    void closeAll() throws Exception {
        pool.shutdownNow();
        for (AutoCloseable c : toClose.reversed()) {
            c.close();
        }
    }

    private RendezvousStore store() {
        // through ServiceLoader: the provider's registration is part of what is tested
        RendezvousStore s = RendezvousStores.open(URI.create(etcd.endpoint()), OPTIONS);
        toClose.add(s);
        return s;
    }

    private Rendezvous join(RendezvousStore store, String job, int rank, int size, Duration timeout) {
        Rendezvous r = store.join(new RendezvousSpec(job, rank, size, timeout));
        toClose.add(r);
        return r;
    }

    private static Throwable failure(Future<?> f) throws Exception {
        try {
            f.get(60, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    @Test
    void eightRanksEachGetExactlyTheInfoAddressedToThem() throws Exception {
        int size = 8;
        RendezvousStore store = store();
        List<Future<Map<Integer, ConnInfo>>> results = new ArrayList<>();
        List<Rendezvous> ranks = new ArrayList<>();
        for (int rank = 0; rank < size; rank++) {
            Rendezvous r = join(store, "eight", rank, size, Duration.ofSeconds(30));
            ranks.add(r);
            int me = rank;
            results.add(pool.submit(() -> {
                r.publish(Ranks.forPeers(1, me, size));
                Map<Integer, ConnInfo> got = r.await();
                r.barrier("connected");
                return got;
            }));
        }
        for (int rank = 0; rank < size; rank++) {
            Map<Integer, ConnInfo> got = results.get(rank).get(60, TimeUnit.SECONDS);
            assertThat(got).containsExactlyEntriesOf(Ranks.expectedFor(1, rank, size));
            assertThat(ranks.get(rank).epoch()).isEqualTo(ranks.getFirst().epoch());
            // join, publish (one txn), initial read, watch: traffic grows with N, each value 108 bytes
            assertThat(ranks.get(rank).traffic().requests()).isGreaterThanOrEqualTo(5);
            assertThat(ranks.get(rank).traffic().bytesSent()).isGreaterThanOrEqualTo(7 * 108);
            assertThat(ranks.get(rank).traffic().bytesReceived()).isGreaterThanOrEqualTo(7 * 108);
        }
    }

    @Test
    void aRankThatNeverComesIsNamedAtTheDeadline() throws Exception {
        RendezvousStore store = store();
        List<Future<?>> waits = new ArrayList<>();
        long start = System.nanoTime();
        for (int rank = 0; rank < 2; rank++) {
            Rendezvous r = join(store, "never", rank, 3, SHORT);
            int me = rank;
            waits.add(pool.submit(() -> {
                r.publish(Ranks.forPeers(1, me, 3));
                return r.await();
            }));
        }
        for (Future<?> f : waits) {
            assertThat(failure(f)).isInstanceOfSatisfying(MissingRanksException.class, e -> {
                assertThat(e.neverCame()).containsExactly(2);
                assertThat(e.departed()).isEmpty();
                assertThat(e.getMessage()).contains("rank 2 missing when the deadline passed", "connection info");
            });
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(SHORT.minusMillis(100));
    }

    @Test
    void aBarrierWaitsForEveryRankAndNamesTheOnesMissing() throws Exception {
        RendezvousStore store = store();
        List<Rendezvous> ranks = new ArrayList<>();
        List<Future<Map<Integer, ConnInfo>>> awaits = new ArrayList<>();
        for (int rank = 0; rank < 3; rank++) {
            Rendezvous r = join(store, "barrier", rank, 3, Duration.ofSeconds(4));
            ranks.add(r);
            int me = rank;
            awaits.add(pool.submit(() -> {
                r.publish(Ranks.forPeers(1, me, 3));
                return r.await();
            }));
        }
        for (Future<?> f : awaits) {
            f.get(30, TimeUnit.SECONDS);
        }
        // all three pass "one"; rank 2 never reaches "two"
        List<Future<?>> one = new ArrayList<>();
        for (Rendezvous r : ranks) {
            one.add(pool.submit(() -> {
                r.barrier("one");
                return null;
            }));
        }
        for (Future<?> f : one) {
            assertThat(failure(f)).isNull();
        }
        List<Future<?>> two = new ArrayList<>();
        for (Rendezvous r : ranks.subList(0, 2)) {
            two.add(pool.submit(() -> {
                r.barrier("two");
                return null;
            }));
        }
        for (Future<?> f : two) {
            assertThat(failure(f)).isInstanceOfSatisfying(MissingRanksException.class, e -> {
                assertThat(e.neverCame()).containsExactly(2);
                assertThat(e.getMessage()).contains("barrier two");
            });
        }
    }

    @Test
    void aRankWhoseLeaseExpiresIsNamedAsDepartedLongBeforeTheDeadline() throws Exception {
        RendezvousStore store = store();
        // rank 2 on a client of its own, which then goes away without a word (as a crashed process)
        RendezvousStore doomed = RendezvousStores.open(URI.create(etcd.endpoint()), OPTIONS);
        Duration deadline = Duration.ofSeconds(40);
        Rendezvous r2 = doomed.join(new RendezvousSpec("lease", 2, 3, deadline));
        List<Future<?>> waits = new ArrayList<>();
        for (int rank = 0; rank < 2; rank++) {
            Rendezvous r = join(store, "lease", rank, 3, deadline);
            int me = rank;
            waits.add(pool.submit(() -> {
                r.publish(Ranks.forPeers(1, me, 3));
                return r.await();
            }));
        }
        assertThat(r2.epoch()).isEqualTo(1);
        long start = System.nanoTime();
        doomed.close();
        for (Future<?> f : waits) {
            assertThat(failure(f)).isInstanceOfSatisfying(MissingRanksException.class, e -> {
                assertThat(e.departed()).containsExactly(2);
                assertThat(e.neverCame()).isEmpty();
                assertThat(e.getMessage()).contains("rank 2 left or died");
            });
        }
        // the TTL is 2 s (etcd's minimum may add a little): far less than the 40 s deadline
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
    }

    @Test
    void aPeerThatClosesIsNamedAtOnce() throws Exception {
        RendezvousStore store = store();
        Rendezvous r0 = join(store, "closes", 0, 2, Duration.ofSeconds(40));
        Rendezvous r1 = join(store, "closes", 1, 2, Duration.ofSeconds(40));
        r0.publish(Ranks.forPeers(1, 0, 2));
        Future<?> wait = pool.submit(r0::await);
        long start = System.nanoTime();
        r1.close();
        r1.close(); // idempotent
        assertThat(failure(wait)).isInstanceOfSatisfying(MissingRanksException.class,
                e -> assertThat(e.departed()).containsExactly(1));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void aPeerThatLeftBeforeTheWaitBeganIsNamedToo() {
        RendezvousStore store = store();
        Rendezvous r0 = join(store, "left-early", 0, 2, Duration.ofSeconds(40));
        Rendezvous r1 = join(store, "left-early", 1, 2, Duration.ofSeconds(40));
        r0.publish(Ranks.forPeers(1, 0, 2));
        r1.close();
        // r0's initial read no longer sees rank 1; its watch of the member keys from its own join does
        long start = System.nanoTime();
        assertThatThrownBy(r0::await).isInstanceOfSatisfying(MissingRanksException.class,
                e -> assertThat(e.departed()).containsExactly(1));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void aRerunOfTheSameJobGetsANewEpochAndNeverSeesTheOldValues() throws Exception {
        RendezvousStore store = store();
        // run 1 completes, and its ranks stay (their leases and keys alive)
        Rendezvous a0 = join(store, "rerun", 0, 2, Duration.ofSeconds(30));
        Rendezvous a1 = join(store, "rerun", 1, 2, Duration.ofSeconds(30));
        a0.publish(Ranks.forPeers(1, 0, 2));
        a1.publish(Ranks.forPeers(1, 1, 2));
        Future<Map<Integer, ConnInfo>> first = pool.submit(a0::await);
        assertThat(a1.await()).containsExactlyEntriesOf(Ranks.expectedFor(1, 1, 2));
        assertThat(first.get(30, TimeUnit.SECONDS)).containsExactlyEntriesOf(Ranks.expectedFor(1, 0, 2));

        // run 2: rank 0 alone first; had it read run 1's info it would return at once, with it
        Rendezvous b0 = join(store, "rerun", 0, 2, Duration.ofSeconds(30));
        assertThat(b0.epoch()).isGreaterThan(a0.epoch());
        b0.publish(Ranks.forPeers(2, 0, 2));
        Future<Map<Integer, ConnInfo>> second = pool.submit(b0::await);
        Rendezvous b1 = join(store, "rerun", 1, 2, Duration.ofSeconds(30));
        assertThat(b1.epoch()).isEqualTo(b0.epoch());
        b1.publish(Ranks.forPeers(2, 1, 2));
        assertThat(b1.await()).containsExactlyEntriesOf(Ranks.expectedFor(2, 1, 2));
        assertThat(second.get(30, TimeUnit.SECONDS)).containsExactlyEntriesOf(Ranks.expectedFor(2, 0, 2));
    }

    @Test
    void aRankThatRestartsMovesTheJobToTheNextEpochAndTheWaitingRanksCompleteThere() throws Exception {
        RendezvousStore store = store();
        List<Rendezvous> waiting = new ArrayList<>();
        List<Future<Map<Integer, ConnInfo>>> awaits = new ArrayList<>();
        for (int rank = 0; rank < 2; rank++) {
            Rendezvous r = join(store, "restart", rank, 3, Duration.ofSeconds(30));
            r.publish(Ranks.forPeers(1, rank, 3));
            waiting.add(r);
            awaits.add(pool.submit(r::await));
        }
        long epoch = waiting.getFirst().epoch();
        // rank 2's first life joins and dies before publishing; its lease has not expired yet
        RendezvousStore firstLife = RendezvousStores.open(URI.create(etcd.endpoint()), OPTIONS.withLeaseTtl(Duration.ofSeconds(30)));
        toClose.add(firstLife);
        assertThat(firstLife.join(new RendezvousSpec("restart", 2, 3, Duration.ofSeconds(30))).epoch()).isEqualTo(epoch);
        // its second life finds the slot taken
        Rendezvous again = join(store, "restart", 2, 3, Duration.ofSeconds(30));
        assertThat(again.epoch()).isEqualTo(epoch + 1);
        again.publish(Ranks.forPeers(2, 2, 3));
        Map<Integer, ConnInfo> got2 = again.await();
        assertThat(got2).containsExactlyEntriesOf(Ranks.expectedFor(1, 2, 3));
        for (int rank = 0; rank < 2; rank++) {
            Map<Integer, ConnInfo> got = awaits.get(rank).get(30, TimeUnit.SECONDS);
            assertThat(got.get(2)).isEqualTo(Ranks.info(2, 2, rank));
            assertThat(waiting.get(rank).epoch()).isEqualTo(epoch + 1);
        }
    }

    @Test
    void aMalformedValueIsReportedWithItsKey() throws Exception {
        RendezvousStore store = store();
        Rendezvous r0 = join(store, "malformed", 0, 2, Duration.ofSeconds(30));
        r0.publish(Ranks.forPeers(1, 0, 2));
        String key = "/jrdma/malformed/" + r0.epoch() + "/info/0/1";
        try (Client raw = Client.builder().endpoints(etcd.url()).build()) {
            raw.getKVClient().put(ByteSequence.from(key, StandardCharsets.UTF_8),
                    ByteSequence.from("not a perftest key message", StandardCharsets.UTF_8)).get(10, TimeUnit.SECONDS);
        }
        assertThatThrownBy(r0::await).isInstanceOfSatisfying(MalformedEntryException.class,
                e -> assertThat(e.key()).isEqualTo(key));
    }

    @Test
    void aMalformedValueArrivingByTheWatchIsReportedWithItsKey() throws Exception {
        RendezvousStore store = store();
        Rendezvous r0 = join(store, "malformed-late", 0, 2, Duration.ofSeconds(30));
        r0.publish(Ranks.forPeers(1, 0, 2));
        Future<?> wait = pool.submit(r0::await);
        String key = "/jrdma/malformed-late/" + r0.epoch() + "/info/0/1";
        byte[] wrong = new byte[108];
        java.util.Arrays.fill(wrong, (byte) 'z');
        try (Client raw = Client.builder().endpoints(etcd.url()).build()) {
            raw.getKVClient().put(ByteSequence.from(key, StandardCharsets.UTF_8), ByteSequence.from(wrong)).get(10, TimeUnit.SECONDS);
        }
        assertThat(failure(wait)).isInstanceOfSatisfying(MalformedEntryException.class, e -> assertThat(e.key()).isEqualTo(key));
    }

    @Test
    void publishChecksItsArgumentsAndAwaitNeedsAPublish() {
        Rendezvous r0 = join(store(), "arguments", 0, 3, SHORT);
        assertThatThrownBy(r0::await).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> r0.publish(Map.of(1, Ranks.info(1, 0, 1)))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[2]");
        assertThatThrownBy(() -> r0.publish(Ranks.forPeers(1, 1, 3))).isInstanceOf(IllegalArgumentException.class);
        r0.publish(Ranks.forPeers(1, 0, 3));
        assertThatThrownBy(() -> r0.publish(Ranks.forPeers(1, 0, 3))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> r0.barrier("no spaces")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aJobOfOneCompletesAlone() {
        Rendezvous r = join(store(), "alone", 0, 1, SHORT);
        r.publish(Map.of());
        assertThat(r.await()).isEmpty();
        r.barrier("b");
        Throwable none = catchThrowable(r::close);
        assertThat(none).isNull();
    }
}
