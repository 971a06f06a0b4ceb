package org.jrdma.bootstrap.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.RemoteBuffer;
import org.jrdma.bootstrap.rendezvous.MalformedEntryException;
import org.jrdma.bootstrap.rendezvous.MissingRanksException;
import org.jrdma.bootstrap.rendezvous.Rendezvous;
import org.jrdma.bootstrap.rendezvous.RendezvousSpec;
import org.jrdma.bootstrap.rendezvous.RendezvousStore;
import org.jrdma.bootstrap.rendezvous.RendezvousStores;
import org.jrdma.bootstrap.rendezvous.StoreOptions;
import org.jrdma.verbs.Gid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The directory store: N ranks as threads (and as JVMs) through one directory, and each way a rank goes missing. */
class FileStoreTest {
    private static final Duration LONG = Duration.ofSeconds(60);
    private static final long WAIT_SECONDS = 60;

    @TempDir
    Path dir;

    private RendezvousStore store;
    private ExecutorService ranks;

    @BeforeEach
    void open() {
        store = RendezvousStores.open(dir.toUri(), StoreOptions.DEFAULTS);
        ranks = Executors.newCachedThreadPool();
    }

    @AfterEach
    void close() {
        ranks.shutdownNow();
        store.close();
    }

    /** What rank {@code from} publishes for rank {@code to} in run {@code epoch}: each distinct. */
    static ConnInfo info(long epoch, int from, int to) {
        int qpn = 0x10000 + (int) epoch * 0x1000 + from * 0x40 + to;
        return new ConnInfo(0, qpn, (from * 7919 + to) & 0xFFFFFF, Gid.fromHex(String.format("00000000000000000000ffff0a00%02x%02x", from, to)),
                new RemoteBuffer(0x1000L * (from + 1), 0x100 + to));
    }

    private static Map<Integer, ConnInfo> forPeers(long epoch, int rank, int size) {
        Map<Integer, ConnInfo> m = new TreeMap<>();
        for (int to = 0; to < size; to++) {
            if (to != rank) {
                m.put(to, info(epoch, rank, to));
            }
        }
        return m;
    }

    private Future<Map<Integer, ConnInfo>> rank(String job, int rank, int size, Duration timeout) {
        return ranks.submit(() -> {
            try (Rendezvous rv = store.join(new RendezvousSpec(job, rank, size, timeout))) {
                rv.publish(forPeers(rv.epoch(), rank, size));
                Map<Integer, ConnInfo> got = rv.await();
                rv.barrier("done");
                return got;
            }
        });
    }

    private static void assertAddressedTo(int rank, int size, long epoch, Map<Integer, ConnInfo> got) {
        assertThat(got.keySet()).hasSize(size - 1).doesNotContain(rank);
        got.forEach((from, i) -> assertThat(i).as("from %d to %d", from, rank).isEqualTo(info(epoch, from, rank)));
    }

    @Test
    void eightRanksEachGetExactlyTheInfoAddressedToThem() throws Exception {
        List<Future<Map<Integer, ConnInfo>>> all = new ArrayList<>();
        for (int r = 0; r < 8; r++) {
            all.add(rank("eight", r, 8, LONG));
        }
        for (int r = 0; r < 8; r++) {
            assertAddressedTo(r, 8, 1, all.get(r).get(WAIT_SECONDS, TimeUnit.SECONDS));
        }
        assertThat(dir.resolve("eight/1/sealed")).exists();
    }

    @Test
    void aRankThatNeverComesIsNamedAtTheDeadline() {
        Future<Map<Integer, ConnInfo>> zero = rank("late", 0, 3, Duration.ofMillis(600));
        Future<Map<Integer, ConnInfo>> two = rank("late", 2, 3, Duration.ofMillis(600));
        for (Future<Map<Integer, ConnInfo>> f : List.of(zero, two)) {
            assertThatThrownBy(() -> f.get(WAIT_SECONDS, TimeUnit.SECONDS)).cause()
                    .isInstanceOfSatisfying(MissingRanksException.class, e -> {
                        assertThat(e.neverCame()).containsExactly(1);
                        assertThat(e.departed()).isEmpty();
                        assertThat(e).hasMessageContaining("1");
                    });
        }
    }

    @Test
    void aRankThatLeavesBeforePublishingIsNamedAtOnceAsDeparted() throws Exception {
        Rendezvous one = store.join(new RendezvousSpec("leaves", 1, 2, LONG));
        Future<Map<Integer, ConnInfo>> zero = ranks.submit(() -> {
            try (Rendezvous rv = store.join(new RendezvousSpec("leaves", 0, 2, LONG))) {
                rv.publish(forPeers(rv.epoch(), 0, 2));
                return rv.await();
            }
        });
        Path slot = dir.resolve("leaves/1/member/1");
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (!Files.exists(dir.resolve("leaves/1/info/1/0")) && System.nanoTime() < end) {
            Thread.onSpinWait();
        }
        assertThat(slot).exists();
        one.close();
        // far within the 60 s deadline: a departure is not waited out
        assertThatThrownBy(() -> zero.get(20, TimeUnit.SECONDS)).cause()
                .isInstanceOfSatisfying(MissingRanksException.class, e -> {
                    assertThat(e.departed()).containsExactly(1);
                    assertThat(e.neverCame()).isEmpty();
                });
    }

    @Test
    void aRerunOfTheJobIdIsANewEpochThatNeverReadsTheOldValues() throws Exception {
        Future<Map<Integer, ConnInfo>> a = rank("rerun", 0, 2, LONG);
        Future<Map<Integer, ConnInfo>> b = rank("rerun", 1, 2, LONG);
        assertAddressedTo(0, 2, 1, a.get(WAIT_SECONDS, TimeUnit.SECONDS));
        assertAddressedTo(1, 2, 1, b.get(WAIT_SECONDS, TimeUnit.SECONDS));
        // the second run: info() depends on the epoch, so an old value read would not match
        a = rank("rerun", 0, 2, LONG);
        b = rank("rerun", 1, 2, LONG);
        assertAddressedTo(0, 2, 2, a.get(WAIT_SECONDS, TimeUnit.SECONDS));
        assertAddressedTo(1, 2, 2, b.get(WAIT_SECONDS, TimeUnit.SECONDS));
    }

    @Test
    void aRestartedRankMovesTheWaitingRanksToANewEpoch() throws Exception {
        // rank 2's first life: it joins run 1 and dies before it publishes (no close: a kill)
        Rendezvous first = store.join(new RendezvousSpec("restart", 2, 3, LONG));
        assertThat(first.epoch()).isEqualTo(1);
        Future<Map<Integer, ConnInfo>> zero = rank("restart", 0, 3, LONG);
        Future<Map<Integer, ConnInfo>> one = rank("restart", 1, 3, LONG);
        // 0 and 1 are waiting in run 1 once their info for rank 2 is there
        awaitFile(dir.resolve("restart/1/info/2/0"));
        awaitFile(dir.resolve("restart/1/info/2/1"));
        assertThat(zero).isNotDone();
        // its second life finds its slot taken and starts run 2; ranks 0 and 1 follow it there
        Map<Integer, ConnInfo> got;
        try (Rendezvous second = store.join(new RendezvousSpec("restart", 2, 3, LONG))) {
            assertThat(second.epoch()).isEqualTo(2);
            second.publish(forPeers(second.epoch(), 2, 3));
            got = second.await();
            second.barrier("done");
        }
        // 0 and 1 published again in run 2 what they had published in run 1, unchanged
        assertThat(got).isEqualTo(Map.of(0, info(1, 0, 2), 1, info(1, 1, 2)));
        Map<Integer, ConnInfo> z = zero.get(WAIT_SECONDS, TimeUnit.SECONDS);
        Map<Integer, ConnInfo> o = one.get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(z).isEqualTo(Map.of(1, info(1, 1, 0), 2, info(2, 2, 0)));
        assertThat(o).isEqualTo(Map.of(0, info(1, 0, 1), 2, info(2, 2, 1)));
        assertThat(dir.resolve("restart/2/sealed")).exists();
    }

    /** Waits (bounded) for another thread's rank to write a file; the test fails if it never does. */
    static void awaitFile(Path file) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (!Files.exists(file)) {
            assertThat(System.nanoTime()).as("waiting for %s", file).isLessThan(end);
            Thread.onSpinWait();
        }
    }

    @Test
    void aMalformedValueIsATypedErrorNamingTheFile() throws Exception {
        Rendezvous zero = store.join(new RendezvousSpec("bad", 0, 2, LONG));
        Path planted = dir.resolve("bad/1/info/0/1");
        Files.createDirectories(planted.getParent());
        Files.write(planted, "garbage".getBytes(StandardCharsets.US_ASCII));
        Files.setPosixFilePermissions(planted, PosixFilePermissions.fromString("rw-------"));
        zero.publish(forPeers(1, 0, 2));
        assertThatThrownBy(zero::await).isInstanceOfSatisfying(MalformedEntryException.class,
                e -> assertThat(e.key()).isEqualTo(planted.toString()));
        zero.close();
    }

    @Test
    void aDirectoryRefusesTlsAndUsers() {
        URI uri = dir.toUri();
        assertThatThrownBy(() -> RendezvousStores.open(uri, StoreOptions.DEFAULTS.withAuth("root", "pw")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no TLS and no users");
    }

    @Test
    void publishWantsOneInfoPerPeer() {
        try (Rendezvous zero = store.join(new RendezvousSpec("pub", 0, 3, LONG))) {
            assertThatThrownBy(() -> zero.publish(Map.of(1, info(1, 0, 1)))).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("no info for rank 2");
            assertThatThrownBy(zero::await).isInstanceOf(IllegalStateException.class);
        }
    }

    /** Two JVMs, as two processes on a host that share a directory: each is found through ServiceLoader. */
    @Test
    void twoJvmsMeetInOneDirectory() throws Exception {
        List<Process> ps = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            ps.add(jvm(dir.toUri().toString(), "jvms", Integer.toString(r), "2"));
        }
        for (int r = 0; r < 2; r++) {
            Process p = ps.get(r);
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(out).isZero();
            int peer = 1 - r;
            assertThat(out).contains(peer + "=" + Integer.toHexString(info(1, peer, r).qpn())).contains("epoch=1");
        }
    }

    private static Process jvm(String... args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String modules = System.getProperty("jdk.module.path", "");
        String cp = System.getProperty("java.class.path") + (modules.isEmpty() ? "" : File.pathSeparator + modules);
        List<String> cmd = new ArrayList<>(List.of(java, "-cp", cp, FileRankMain.class.getName()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true).start();
    }
}
