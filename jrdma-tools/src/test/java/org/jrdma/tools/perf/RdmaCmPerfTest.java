package org.jrdma.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.jrdma.tools.FreeLoopback;
import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.OwnDevices;
import org.jrdma.tools.ToolRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code jrdma perf -R}: no TCP — the connection manager connects an exchange QP, perftest's
 * conversation runs as SENDs on it (binary key messages), then it connects the test QPs, and
 * at the end the client disconnects them all. Server and client in this JVM on one soft device (its
 * CM answers both), every byte checked.
 */
class RdmaCmPerfTest {
    @RegisterExtension
    static final OwnDevices DEVICE = new OwnDevices("perfcm");

    private static PerfPair.Result ok(String... args) throws Exception {
        PerfPair.Result r = PerfPair.runTo(DEVICE.address(), DEVICE.name(), args);
        assertThat(r.client().code()).as(r.toString()).isZero();
        assertThat(r.server().code()).as(r.toString()).isZero();
        return r;
    }

    @ParameterizedTest
    @ValueSource(strings = {"write_bw", "read_bw", "send_bw", "atomic_bw"})
    void bandwidthOverTheConnectionManager(String test) throws Exception {
        boolean atomic = test.equals("atomic_bw");
        PerfPair.Result r = atomic ? ok(test, "-R", "-n", "40", "--check") : ok(test, "-R", "-n", "40", "-s", "4096", "--check");
        String checkedSide = test.equals("read_bw") || atomic ? r.client().out() : r.server().out();
        assertThat(checkedSide).contains(PerfEndToEndTest.verifiedLine(test, 40, 40));
        assertThat(r.client().out()).contains(" rdma_cm QPs\t : ON\n", " Data ex. method : rdma_cm\n");
        assertThat(Pattern.compile("^ " + (atomic ? 8 : 4096) + " +40 +", Pattern.MULTILINE).matcher(r.client().out()).find())
                .as(r.client().out()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"send_lat", "write_lat", "read_lat"})
    void latencyOverTheConnectionManager(String test) throws Exception {
        PerfPair.Result r = ok(test, "-R", "-n", "20", "--check");
        assertThat(r.client().out()).contains(PerfEndToEndTest.verifiedLine(test, 20, 20));
        assertThat(r.client().out()).contains(LatTable.header());
    }

    /**
     * -D over the connection manager: a SEND receiver drains through the closing key exchange,
     * and the client disconnects only after it — the disconnect takes the QPs to ERR, and a
     * drain still running then met its own flushed receives ("the receive after 6518 messages
     * failed: Work Request Flushed Error").
     */
    @ParameterizedTest
    @ValueSource(strings = {"send_bw", "send_bw -b", "write_bw", "send_lat", "read_lat"})
    void aDurationRunOverTheConnectionManagerEndsCleanly(String test) throws Exception {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of(test.split(" ")));
        args.addAll(java.util.List.of("-R", "-D", "1", "--check"));
        PerfPair.Result r = ok(args.toArray(String[]::new));
        assertThat(r.client().out() + r.server().out()).contains(" --check: verified ");
    }

    /** Both sides print the same two addresses, crossed: the key messages crossed the exchange QP intact. */
    @Test
    void theKeyMessagesCrossTheExchangeQp() throws Exception {
        PerfPair.Result r = ok("write_bw", "-R", "-n", "10", "-s", "1024");
        assertThat(line(r.client().out(), " remote address:").substring(" remote".length()))
                .isEqualTo(line(r.server().out(), " local address:").substring(" local".length()));
        assertThat(line(r.server().out(), " remote address:").substring(" remote".length()))
                .isEqualTo(line(r.client().out(), " local address:").substring(" local".length()));
    }

    /** -q N: N test connections after the exchange connection, one after the other. */
    @Test
    void severalQpsEachConnectedByTheConnectionManager() throws Exception {
        PerfPair.Result r = ok("write_bw", "-R", "-q", "3", "-n", "20", "-s", "2048", "--check");
        assertThat(r.server().out()).contains(PerfEndToEndTest.verifiedLine("write_bw", 60, 60)); // 3 × 20 slots
        assertThat(r.client().out().lines().filter(l -> l.startsWith(" local address:"))).hasSize(3);
    }

    @Test
    void rdmaCmIsForRc() throws Exception {
        for (String type : new String[] {"UC", "UD"}) {
            ToolRun s = ToolRun.of("perf", "send_bw", "-R", "-c", type, "-d", DEVICE.name());
            assertThat(s.code()).as(s.toString()).isEqualTo(ExitCodes.USAGE);
            assertThat(s.err()).contains("--rdma_cm connects RC QPs");
        }
    }

    /**
     * A -R side that finds no peer says which, where and for how long; it said "get_cm_event: no
     * event within 1000 ms" for a server with no client and for a client with no server, and
     * "expected ESTABLISHED, got REJECTED (status 8)" for a port nobody listens on. The client
     * says once, as the TCP client does, that it tries again and until when; it said nothing.
     */
    @Test
    void aSideWithNoPeerSaysWhatItWaitedFor() throws Exception {
        int port = FreeLoopback.tcpPort();
        ToolRun server = ToolRun.of("perf", "write_bw", "-R", "-d", DEVICE.name(), "-p", String.valueOf(port), "--timeout-ms",
                "700");
        assertThat(server.code()).as(server.toString()).isEqualTo(ExitCodes.FAILURE);
        assertThat(server.err()).isEqualTo("jrdma perf: error: no client connected to rdma_cm port " + port
                + " within 700 ms (--timeout-ms) (TIMED_OUT, errno 110)\n");
        ToolRun client = ToolRun.of("perf", "write_bw", "-R", "-d", DEVICE.name(), "-p", String.valueOf(port), "--timeout-ms",
                "700", DEVICE.address());
        assertThat(client.code()).as(client.toString()).isEqualTo(ExitCodes.FAILURE);
        String where = Pattern.quote(DEVICE.address() + ":" + port);
        assertThat(client.err()).matches("jrdma perf: " + where + " rejected the connection: no rdma_cm server listens there yet;"
                + " trying again until \\d\\d:\\d\\d:\\d\\d \\(0\\.7 s\\)\n"
                + "jrdma perf: error: no rdma_cm server listens on " + where + ": every connect was rejected for 700 ms"
                + " \\(--timeout-ms\\); is the server running with -R on that address and port\\?"
                + " \\(CONNECTION_REFUSED, errno 111\\)\n");
    }

    /**
     * A host with a port in it is refused as the TCP client refuses it, saying that the port goes
     * in -p — with -R it was resolved as it stood: "invalid IPv6 address literal".
     */
    @ParameterizedTest(name = "-R: {0}")
    @ValueSource(booleans = {true, false})
    void aHostWithAPortIsToldThatThePortGoesInP(boolean rdmaCm) {
        for (String host : new String[] {"127.0.0.1:18515", "[::1]:18515"}) {
            List<String> args = new ArrayList<>(List.of("perf", "write_bw", "-d", DEVICE.name(), "-p", "18515", "--timeout-ms",
                    "700", host));
            if (rdmaCm) {
                args.add("-R");
            }
            ToolRun client = ToolRun.of(args);
            assertThat(client.code()).as(client.toString()).isEqualTo(ExitCodes.FAILURE);
            assertThat(client.err()).isEqualTo("jrdma perf: error: host: \"" + host + "\" carries a port: give the host"
                    + " alone and the port apart (the tools' -p 18515 " + (host.startsWith("[") ? "::1" : "127.0.0.1") + ")\n");
        }
    }

    /**
     * With -R the peer's end may come as a DISCONNECTED: perftest's kernel destroys a dying
     * process's ids (a DREQ), and a jrdma side that fails closes its own. A look at the link sees
     * it without waiting, and keeps it and any other event for the link's own end.
     */
    @Test
    void aLookSeesThatThePeerDisconnected() throws Exception {
        int port = FreeLoopback.tcpPort();
        PerfConfig server = new PerfConfig(PerfTest.SEND_BW, null, DEVICE.name(), port, 64, false, false, 10, 0, 1, false,
                false, 0, null, 0, 128, 512, 100, 16, org.jrdma.verbs.QpType.RC, AtomicType.FETCH_AND_ADD, false, null, false,
                false, java.time.Duration.ofSeconds(20), java.time.Duration.ofSeconds(20), 0, true);
        PerfConfig client = new PerfConfig(PerfTest.SEND_BW, DEVICE.address(), DEVICE.name(), port, 64, false, false, 10, 0, 1,
                false, false, 0, null, 0, 128, 512, 100, 16, org.jrdma.verbs.QpType.RC, AtomicType.FETCH_AND_ADD, false, null,
                false, false, java.time.Duration.ofSeconds(20), java.time.Duration.ofSeconds(20), 0, true);
        java.net.InetAddress address = java.net.InetAddress.getByName(DEVICE.address());
        java.util.concurrent.CompletableFuture<RdmaCmLink> accepted = java.util.concurrent.CompletableFuture.supplyAsync(
                () -> RdmaCmLink.open(server, address, () -> { }, line -> { }));
        RdmaCmLink near = RdmaCmLink.open(client, address, () -> { }, line -> { });
        try (RdmaCmLink far = accepted.get(30, java.util.concurrent.TimeUnit.SECONDS)) {
            assertThat(far.peerDisconnected()).as("connected, nobody has gone").isFalse();
            near.close(); // its ids are destroyed: a DREQ, as the kernel sends for a dying perftest
            long deadline = System.nanoTime() + java.time.Duration.ofSeconds(20).toNanos();
            while (!far.pipe().peerClosed()) {
                assertThat(System.nanoTime()).as("no DISCONNECTED within 20 s").isLessThan(deadline);
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000); // a poll of the condition
            }
        } finally {
            near.close();
        }
    }

    private static String line(String out, String prefix) {
        return out.lines().filter(l -> l.startsWith(prefix)).findFirst().orElseThrow(() -> new AssertionError(out));
    }
}
