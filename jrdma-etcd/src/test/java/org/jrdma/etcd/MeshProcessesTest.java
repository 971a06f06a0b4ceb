package org.jrdma.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code jrdma mesh} as a user runs it: one process per rank, a real etcd on loopback (its own per
 * test, so that stopping it touches nothing else), each rank on a soft device of its own address.
 */
class MeshProcessesTest {
    private static final long WAIT_SECONDS = 120;
    private static final AtomicInteger JOBS = new AtomicInteger();

    private final List<Process> processes = new ArrayList<>();
    private EtcdServer etcd;

    @AfterEach
    void cleanUp() {
        processes.forEach(Process::destroyForcibly);
        if (etcd != null) {
            etcd.close();
        }
    }

    /** A child JVM with this test's class path. */
    private Process jvm(String mainClass, List<String> args, String softDevices) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow", "-Dslf4j.internal.verbosity=ERROR",
                "-cp", System.getProperty("java.class.path"), mainClass));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        if (softDevices != null) {
            pb.environment().put("JRDMA_SOFT_DEVICES", softDevices);
        }
        pb.environment().put("JRDMA_STATS_DIR", "off");
        Process p = pb.start();
        processes.add(p);
        return p;
    }

    /**
     * A request deadline for the tests that do not test it: a child JVM's first request also loads
     * and starts gRPC, and eight of them at once on two busy cores took more than the default 5 s.
     */
    private static final String SLOW_MACHINE_REQUEST_MS = "30000";

    /** Rank {@code rank} of {@code jrdma mesh}, on a device "m" at a free 127.88.x.y. */
    private Rank mesh(String job, int rank, int size, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("mesh", "--store", etcd.endpoint(), "--job", job, "--rank",
                Integer.toString(rank), "--size", Integer.toString(size), "-s", "256", "-d", "m"));
        args.addAll(List.of(more));
        if (!args.contains("--request-timeout-ms")) {
            args.addAll(List.of("--request-timeout-ms", SLOW_MACHINE_REQUEST_MS));
        }
        return new Rank(jvm("org.jrdma.tools.Main", args, "m=" + freeAddress()));
    }

    private static final AtomicInteger NEXT = new AtomicInteger((int) (ProcessHandle.current().pid() % 200) * 250);

    /** A 127.88.x.y where UDP 4791 is free now. */
    private static String freeAddress() throws Exception {
        for (int i = 0; i < 50_000; i++) {
            int n = NEXT.getAndIncrement() % 50_000;
            InetAddress a = InetAddress.getByAddress(new byte[] {127, 88, (byte) (n / 250), (byte) (n % 250 + 1)});
            try (DatagramSocket _ = new DatagramSocket(new InetSocketAddress(a, 4791))) {
                return a.getHostAddress();
            } catch (SocketException taken) {
                // next
            }
        }
        throw new IllegalStateException("no free 127.88.x.y");
    }

    /** A running rank and everything it prints, read as it comes. */
    private static final class Rank {
        final Process process;
        final CompletableFuture<String> output;
        /** The first line that says where the rank joined ("joined epoch 1"; HangingRank's). */
        final CompletableFuture<String> joined = new CompletableFuture<>();

        Rank(Process p) {
            process = p;
            // a thread of its own: the common pool may have one thread, and these block on a pipe
            output = CompletableFuture.supplyAsync(() -> {
                StringBuilder all = new StringBuilder();
                try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        if (line.startsWith("joined ")) {
                            joined.complete(line);
                        }
                        all.append(line).append('\n');
                    }
                } catch (java.io.IOException e) {
                    all.append("(read failed: ").append(e).append(")\n");
                }
                joined.complete("(ended: " + all + ")");
                return all.toString();
            }, r -> Thread.ofPlatform().daemon().name("rank-output").start(r));
        }

        /** Exit code, once it has ended (fails the test if it has not within the wait). */
        int exit(long seconds) throws Exception {
            assertThat(process.waitFor(seconds, TimeUnit.SECONDS)).as("ended within %d s", seconds).isTrue();
            return process.exitValue();
        }

        String out() throws Exception {
            return output.get(WAIT_SECONDS, TimeUnit.SECONDS);
        }
    }

    /** Waits until run {@code epoch} of the job has {@code count} members. */
    private void awaitMembers(String job, long epoch, int count) throws Exception {
        awaitKeys("/jrdma/" + job + "/" + epoch + "/member/", count);
    }

    /** Waits, by a watch from a read's revision, until {@code count} keys are under {@code prefix}. */
    private void awaitKeys(String prefix, int count) throws Exception {
        ByteSequence key = ByteSequence.from(prefix, StandardCharsets.UTF_8);
        try (Client c = Client.builder().endpoints(etcd.url()).build()) {
            GetResponse now = c.getKVClient().get(key, GetOption.builder().isPrefix(true).build()).get(30, TimeUnit.SECONDS);
            if (now.getCount() >= count) {
                return;
            }
            AtomicInteger members = new AtomicInteger((int) now.getCount());
            CompletableFuture<Void> enough = new CompletableFuture<>();
            WatchOption from = WatchOption.builder().isPrefix(true).withRevision(now.getHeader().getRevision() + 1).build();
            try (Watch.Watcher _ = c.getWatchClient().watch(key, from, r -> {
                for (WatchEvent e : r.getEvents()) {
                    int n = e.getEventType() == WatchEvent.EventType.PUT ? members.incrementAndGet() : members.decrementAndGet();
                    if (n >= count) {
                        enough.complete(null);
                    }
                }
            })) {
                enough.get(WAIT_SECONDS, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * What a failure may take beyond its lease or request timeout before the test calls it late:
     * JVM start-up and scheduling on a loaded two-core machine, still far from the 10-minute deadlines.
     */
    private static final long LEASE_MARGIN_SECONDS = 40;

    private static long secondsSince(long nanos) {
        return TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - nanos);
    }

    private static String job() {
        return "p" + ProcessHandle.current().pid() + "-" + JOBS.incrementAndGet();
    }

    @Test
    void eightProcessesBuildTheMeshAndRankZeroPrintsTheMatrix() throws Exception {
        etcd = EtcdServer.start();
        String job = job();
        List<Rank> ranks = new ArrayList<>();
        for (int r = 0; r < 8; r++) {
            ranks.add(mesh(job, r, 8));
        }
        for (int r = 0; r < 8; r++) {
            Rank rank = ranks.get(r);
            assertThat(rank.exit(WAIT_SECONDS)).as(rank.out()).isZero();
            assertThat(rank.out()).contains("rank " + r + " of 8, job " + job + ", epoch 1, store " + etcd.endpoint())
                    .contains("verified  7 of 7 peers' WRITEs of 256 bytes");
        }
        assertThat(ranks.get(0).out()).contains("mesh: ok: 56 of 56 ordered pairs verified").contains("      3  +++-++++");
    }

    @Test
    void aRankKilledMidSetupIsNamedByTheOthersWellBeforeTheDeadline() throws Exception {
        etcd = EtcdServer.start();
        String job = job();
        Rank three = new Rank(jvm(HangingRank.class.getName(),
                List.of(etcd.endpoint(), job, "3", "4", "2000", SLOW_MACHINE_REQUEST_MS), null));
        assertThat(three.joined.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("joined epoch 1");
        List<Rank> others = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            others.add(mesh(job, r, 4, "--timeout-ms", "600000", "--lease-ttl-ms", "2000"));
        }
        awaitMembers(job, 1, 4);
        three.process.destroyForcibly(); // SIGKILL: no close, its lease runs out
        long killed = System.nanoTime();
        for (Rank r : others) {
            // the deadline is 10 minutes away: a lease of 2 s names rank 3 long before
            assertThat(r.exit(WAIT_SECONDS)).as(r.out()).isEqualTo(1);
            assertThat(r.out()).contains("jrdma mesh: error: job " + job + " epoch 1: rank 3 left or died (lease gone)");
        }
        assertThat(secondsSince(killed)).as("seconds from the kill to the last exit").isLessThan(LEASE_MARGIN_SECONDS);
    }

    @Test
    void aRankRestartedUnderTheSameJobIdMovesEveryoneToANewEpoch() throws Exception {
        etcd = EtcdServer.start();
        String job = job();
        Rank first = new Rank(jvm(HangingRank.class.getName(),
                List.of(etcd.endpoint(), job, "3", "4", "30000", SLOW_MACHINE_REQUEST_MS), null));
        assertThat(first.joined.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("joined epoch 1");
        List<Rank> ranks = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            ranks.add(mesh(job, r, 4));
        }
        awaitMembers(job, 1, 4);
        first.process.destroyForcibly();
        // its lease (30 s) still holds its slot in epoch 1: the second life cannot take it and
        // starts epoch 2, and the three waiting ranks follow it there
        ranks.add(mesh(job, 3, 4));
        for (int r = 0; r < 4; r++) {
            Rank rank = ranks.get(r);
            assertThat(rank.exit(WAIT_SECONDS)).as(rank.out()).isZero();
            assertThat(rank.out()).contains("rank " + r + " of 4, job " + job + ", epoch 2,");
        }
        assertThat(ranks.get(0).out()).contains("mesh: ok: 12 of 12 ordered pairs verified");
    }

    @Test
    void etcdStoppedMidSetupEndsEveryRankWithAClearError() throws Exception {
        etcd = EtcdServer.start();
        String job = job();
        List<Rank> ranks = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            ranks.add(mesh(job, r, 3, "--timeout-ms", "600000", "--lease-ttl-ms", "3000", "--request-timeout-ms", "8000"));
        }
        awaitMembers(job, 1, 2);   // both joined and waiting for rank 2, which never comes
        etcd.stop();               // SIGKILL: the connections close, the lease's keep-alive stream fails
        long stopped = System.nanoTime();
        for (Rank r : ranks) {
            assertThat(r.exit(WAIT_SECONDS)).as(r.out()).isEqualTo(1);
            assertThat(r.out()).contains("jrdma mesh: error: store " + etcd.endpoint() + " did not answer while");
            assertThat(r.out().lines().filter(l -> l.startsWith("jrdma mesh: error:")).count()).as(r.out()).isOne();
        }
        // silent for a keep-alive period (1 s), jetcd's tick and slack (1 s) and a request (8 s):
        // about 10 s, against a deadline 10 minutes away
        assertThat(secondsSince(stopped)).as("seconds from the stop to the last exit").isLessThan(8 + LEASE_MARGIN_SECONDS);
    }

    @Test
    void aFrozenEtcdIsTakenForDeadByTheRanksOwnDeadlines() throws Exception {
        etcd = EtcdServer.start();
        String job = job();
        List<Rank> ranks = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            ranks.add(mesh(job, r, 3, "--timeout-ms", "600000", "--lease-ttl-ms", "3000", "--request-timeout-ms", "8000"));
        }
        // both have published for their two peers (info/<to>/<from>): they are reading and
        // watching for rank 2's info now
        awaitKeys("/jrdma/" + job + "/1/info/", 4);
        // SIGSTOP: the connections stay open and nothing ever errors; only the keep-alives'
        // silence tells a rank that the store is gone
        etcd.freeze();
        long frozen = System.nanoTime();
        for (Rank r : ranks) {
            assertThat(r.exit(WAIT_SECONDS)).as(r.out()).isEqualTo(1);
            // whichever notices first: a read that gets no answer (8 s), jetcd giving the lease up
            // a TTL (3 s) without one, or the rank's own check of the keep-alives' silence (1 + 1 + 8 s)
            assertThat(r.out()).contains("jrdma mesh: error: store " + etcd.endpoint() + " did not answer while");
            assertThat(r.out().lines().filter(l -> l.startsWith("jrdma mesh: error:")).count()).as(r.out()).isOne();
        }
        // at most the silence of 1 + 1 + 8 s, found at the next poll (at most 8 s on): not the deadline
        assertThat(secondsSince(frozen)).as("seconds from the freeze to the last exit").isLessThan(16 + LEASE_MARGIN_SECONDS);
    }

    @Test
    void etcdDownBeforeTheRanksStartEndsThemAfterOneRequestTimeout() throws Exception {
        etcd = EtcdServer.start();
        String endpoint = etcd.endpoint();
        etcd.stop();
        String job = job();
        long started = System.nanoTime();
        List<Rank> ranks = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            ranks.add(mesh(job, r, 2, "--timeout-ms", "600000", "--request-timeout-ms", "3000"));
        }
        for (Rank r : ranks) {
            assertThat(r.exit(WAIT_SECONDS)).as(r.out()).isEqualTo(1);
            assertThat(r.out()).contains("jrdma mesh: error: store " + endpoint + " did not answer while connecting");
            assertThat(r.out().lines().filter(l -> l.startsWith("jrdma mesh: error:")).count()).as(r.out()).isOne();
        }
        // a JVM's start and one 3 s request, not the rendezvous deadline
        assertThat(secondsSince(started)).as("seconds from the start to the last exit").isLessThan(3 + LEASE_MARGIN_SECONDS);
    }

    @Test
    void aMalformedValueInTheStoreIsATypedErrorNamingItsKey() throws Exception {
        etcd = EtcdServer.start();
        String job = job();
        Rank zero = mesh(job, 0, 2, "--timeout-ms", "600000");
        awaitMembers(job, 1, 1);
        String key = "/jrdma/" + job + "/1/info/0/1";
        try (Client c = Client.builder().endpoints(etcd.url()).build()) {
            c.getKVClient().put(ByteSequence.from(key, StandardCharsets.UTF_8),
                    ByteSequence.from("hand-written, not a key message", StandardCharsets.UTF_8)).get(30, TimeUnit.SECONDS);
        }
        assertThat(zero.exit(WAIT_SECONDS)).as(zero.out()).isEqualTo(1);
        assertThat(zero.out()).contains("jrdma mesh: error: malformed entry " + key + ": ");
    }
}
