package org.jrdma.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.jrdma.tools.FreeLoopback;
import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.OwnDevices;
import org.jrdma.tools.ToolRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every test end to end, server and client on one soft device in this JVM, every byte checked. */
class PerfEndToEndTest {
    private static final String BW_HEADER = " #bytes     #iterations    BW peak[MiB/sec]    BW average[MiB/sec]   MsgRate[Mpps]";

    @RegisterExtension
    static final OwnDevices DEVICE = new OwnDevices("perf");

    private static PerfPair.Result ok(String... args) throws Exception {
        PerfPair.Result r = PerfPair.run(DEVICE.name(), args);
        assertThat(r.client().code()).as(r.toString()).isZero();
        assertThat(r.server().code()).as(r.toString()).isZero();
        return r;
    }

    /** A bandwidth row: #bytes then #iterations, as REPORT_FMT lays them out. */
    static void assertBwRow(String out, long bytes, long iters) {
        assertThat(out).contains(BW_HEADER);
        assertThat(Pattern.compile("^ " + bytes + " +" + iters + " +\\d+\\.\\d{2} +\\d+\\.\\d{2} *\t\t   \\d+\\.\\d{6}$",
                Pattern.MULTILINE).matcher(out).find()).as(out).isTrue();
    }

    static void assertLatRow(String out, long bytes, long iters) {
        assertThat(out).contains(LatTable.header());
        assertThat(Pattern.compile("^ " + bytes + " +" + iters + " +\\d+\\.\\d{2} ", Pattern.MULTILINE).matcher(out).find())
                .as(out).isTrue();
    }

    /** Something was verified and nothing failed. */
    static void assertChecked(String out) {
        assertThat(out).containsPattern("\n --check: verified [1-9]\\d* [^\n]*; 0 failed\n");
    }

    /**
     * The summary line of the side that verifies {@code test}'s data, when it verified {@code n}
     * items (write_bw: target slots) after {@code ops} operations.
     */
    static String verifiedLine(String test, long n, long ops) {
        String what = switch (test) {
            case "send_bw", "send_lat" -> n + " messages received (every byte)";
            case "write_lat" -> n + " WRITEs as they landed (every byte)";
            case "read_bw", "read_lat" -> n + " READs (every byte read)";
            case "atomic_bw", "atomic_lat" -> n + " atomic results (the original value each returned)";
            case "write_bw" -> n + " target slots (the final contents of each: the last WRITE into it, every byte; " + ops
                    + " WRITEs in all)";
            default -> throw new IllegalArgumentException(test);
        };
        return "\n --check: verified " + what + "; 0 failed\n";
    }

    /** The summary line of a side that verifies nothing: its peer checks what arrives there. */
    static final String NOTHING_VERIFIED = "\n --check: nothing verified on this side (a peer with --check verifies what arrives"
            + " there); 0 failed\n";

    /**
     * --check says exactly what each side verified: the receiver every message, the reader every
     * READ, the atomic initiator every original value and the target its final counter — and a
     * write_bw target only its slots' final contents, here 60 slots for 60 WRITEs of 4 KiB, then
     * 16 slots (1 MiB of 64 KiB slots) for 100 WRITEs.
     */
    @ParameterizedTest
    @ValueSource(strings = {"send_bw", "write_bw", "read_bw", "atomic_bw"})
    void bandwidthTestsRunAndSayWhatTheyChecked(String test) throws Exception {
        boolean atomic = test.equals("atomic_bw");
        PerfPair.Result r = atomic ? ok(test, "-n", "60", "--check") : ok(test, "-n", "60", "-s", "4096", "--check");
        int size = atomic ? 8 : 4096;
        assertBwRow(r.client().out(), size, 60);
        // The server prints its own row (send_bw) or the client's (one-sided tests).
        assertBwRow(r.server().out(), size, 60);
        if (!test.equals("send_bw")) {
            assertThat(r.client().out()).contains("\n---------------------------------------------------------------------------------------\n");
        }
        switch (test) {
            case "send_bw", "write_bw" -> {
                assertThat(r.server().out()).contains(verifiedLine(test, 60, 60));
                assertThat(r.client().out()).contains(NOTHING_VERIFIED);
            }
            case "read_bw" -> {
                assertThat(r.client().out()).contains(verifiedLine(test, 60, 60));
                assertThat(r.server().out()).contains(NOTHING_VERIFIED);
            }
            default -> {
                assertThat(r.client().out()).contains(verifiedLine(test, 60, 60));
                assertThat(r.server().out()).contains("\n --check: verified 1 target counter (the final value of each); 0 failed\n");
            }
        }
        if (test.equals("write_bw")) {
            PerfPair.Result big = ok(test, "-n", "100", "-s", "65536", "--check");
            assertThat(big.server().out()).contains(verifiedLine(test, 16, 100));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"send_lat", "write_lat", "read_lat", "atomic_lat"})
    void latencyTestsRunAndCheckEveryByte(String test) throws Exception {
        PerfPair.Result r = ok(test, "-n", "25", "--check");
        int size = test.equals("atomic_lat") ? 8 : 2;
        assertLatRow(r.client().out(), size, 25);
        assertThat(r.client().out()).contains(verifiedLine(test, 25, 25));
        if (test.equals("send_lat") || test.equals("write_lat")) {
            assertLatRow(r.server().out(), size, 25); // both sides time their posts
            assertThat(r.server().out()).contains(verifiedLine(test, 25, 25));
        } else {
            assertThat(r.server().out()).doesNotContain("t_min"); // read_lat/atomic_lat servers only wait
            assertThat(r.server().out()).contains(NOTHING_VERIFIED);
        }
    }

    @Test
    void theBannerAndAddressLinesMatchAcrossTheSides() throws Exception {
        PerfPair.Result r = ok("write_bw", "-n", "10", "-s", "1024");
        String client = r.client().out();
        String server = r.server().out();
        assertThat(client).contains("                    RDMA_Write BW Test\n", "\t\tDevice         : " + DEVICE.name() + "\n",
                " TX depth        : 128\n", " rdma_cm QPs\t : OFF\n", " Data ex. method : Ethernet\n");
        assertThat(server).startsWith("\n************************************\n* Waiting for client to connect... *\n");
        assertThat(server).doesNotContain("TX depth");
        assertThat(line(client, " remote address:").substring(" remote".length()))
                .isEqualTo(line(server, " local address:").substring(" local".length()));
        assertThat(line(client, " local address:")).matches(" local address: LID 0000 QPN 0x[0-9a-f]{4,6} PSN 0x[0-9a-f]{4,6} "
                + "RKey 0x[0-9a-f]{6,8} VAddr 0x[0-9a-f]{14,16}");
        String[] octets = DEVICE.address().split("\\.");
        assertThat(client).contains(String.format("\n GID: 00:00:00:00:00:00:00:00:00:00:255:255:%02d:%02d:%02d:%02d\n",
                Integer.parseInt(octets[0]), Integer.parseInt(octets[1]), Integer.parseInt(octets[2]), Integer.parseInt(octets[3])));
    }

    @Test
    void severalQpsRoundRobin() throws Exception {
        PerfPair.Result w = ok("write_bw", "-q", "2", "-n", "40", "-s", "2048", "--check");
        assertBwRow(w.client().out(), 2048, 80); // perftest reports iterations × QPs
        assertThat(w.client().out()).contains(" Number of qps   : 2\t\t");
        assertThat(w.client().out().lines().filter(l -> l.startsWith(" local address:"))).hasSize(2);
        assertChecked(w.server().out());
        PerfPair.Result s = ok("send_bw", "-q", "2", "-n", "40", "-s", "2048", "--check");
        assertBwRow(s.server().out(), 2048, 80);
        assertChecked(s.server().out());
    }

    @ParameterizedTest
    @ValueSource(strings = {"send_bw", "write_bw", "read_bw", "atomic_bw"})
    void bidirectional(String test) throws Exception {
        boolean atomic = test.equals("atomic_bw");
        PerfPair.Result r = atomic ? ok(test, "-b", "-n", "40", "--check", "-A", "CMP_AND_SWAP")
                : ok(test, "-b", "-n", "40", "-s", "2048", "--check");
        for (ToolRun side : List.of(r.client(), r.server())) {
            assertThat(side.out()).contains(" Bidirectional BW Test\n", " TX depth        : 128\n");
            assertBwRow(side.out(), atomic ? 8 : 2048, 40);
            assertChecked(side.out());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"write_bw", "send_bw"})
    void unreliableConnection(String test) throws Exception {
        PerfPair.Result r = ok(test, "-c", "UC", "-n", "40", "-s", "1024", "--check");
        assertThat(r.client().out()).contains(" Connection type : UC\t\t");
        assertBwRow(r.client().out(), 1024, 40);
        assertChecked(r.server().out());
    }

    @Test
    void unreliableDatagramSend() throws Exception {
        PerfPair.Result bw = ok("send_bw", "-c", "UD", "-n", "40", "-s", "1024", "--check");
        assertThat(bw.client().out()).contains(" Connection type : UD\t\t");
        assertBwRow(bw.client().out(), 1024, 40);
        assertChecked(bw.server().out());
        PerfPair.Result lat = ok("send_lat", "-c", "UD", "-n", "20", "-s", "512", "--check");
        assertLatRow(lat.client().out(), 512, 20);
        assertChecked(lat.client().out());
        assertChecked(lat.server().out());
    }

    @Test
    void udShrinksTheDefaultSizeToTheMtuAsPerftest() throws Exception {
        PerfPair.Result r = ok("send_bw", "-c", "UD", "-n", "20", "-m", "1024");
        assertThat(r.client().out()).contains(" Max msg size in UD is MTU 1024\n", " Mtu             : 1024[B]\n");
        assertBwRow(r.client().out(), 1024, 20);
    }

    @Test
    void allSizesDurationAndEvents() throws Exception {
        PerfPair.Result all = ok("write_bw", "-a", "-n", "3", "--check");
        for (int s = 2; s <= 1 << 23; s <<= 1) {
            assertBwRow(all.client().out(), s, 3);
        }
        assertBwRow(all.server().out(), 1 << 23, 3); // the server prints the client's last row
        assertChecked(all.server().out());

        PerfPair.Result dur = ok("write_bw", "-D", "1", "-s", "1024");
        assertThat(dur.client().out()).contains(Banner.NO_PEAK_WARNING);
        assertThat(Pattern.compile("^ 1024 +[1-9]\\d* +0\\.00 ", Pattern.MULTILINE).matcher(dur.client().out()).find())
                .as(dur.client().out()).isTrue();
        PerfPair.Result lat = ok("send_lat", "-D", "1");
        assertThat(lat.client().out()).contains(LatTable.durationHeader());

        PerfPair.Result events = ok("send_bw", "-e", "-n", "40", "-s", "1024", "--check");
        assertThat(events.client().out()).contains(" Test with events.\n");
        assertChecked(events.server().out());
        PerfPair.Result readEvents = ok("read_lat", "-e", "-n", "20", "--check");
        assertChecked(readEvents.client().out());
    }

    @Test
    void reportGbits() throws Exception {
        PerfPair.Result r = ok("write_bw", "-n", "20", "-s", "4096", "--report_gbits");
        assertThat(r.client().out()).contains(" #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]");
    }

    @Test
    void jsonAndAllocationReport(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("client.json");
        int port = FreeLoopback.tcpPort();
        java.util.concurrent.CompletableFuture<ToolRun> server = java.util.concurrent.CompletableFuture.supplyAsync(() ->
                ToolRun.of("perf", "write_bw", "-n", "30", "-s", "4096", "-d", DEVICE.name(), "-p", String.valueOf(port),
                        "--report-alloc", "--out_json", "--out_json_file", dir.resolve("server.json").toString()));
        ToolRun client = ToolRun.of("perf", "write_bw", "-n", "30", "-s", "4096", "-d", DEVICE.name(), "-p",
                String.valueOf(port), "--report-alloc", "--out_json", "--out_json_file=" + json, "127.0.0.1");
        ToolRun srv = server.get(120, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(client.code()).as(client.toString()).isZero();
        assertThat(srv.code()).as(srv.toString()).isZero();
        assertThat(client.out()).containsPattern("\nbytes allocated per operation: \\d+\\.\\d\\d\n");
        assertThat(srv.out()).containsPattern("\nbytes allocated per operation: \\d+\\.\\d\\d\n");

        String text = Files.readString(json, StandardCharsets.UTF_8).strip();
        assertWellFormed(text);
        assertThat(text).startsWith("{").endsWith("}")
                .contains("\"test\": \"RDMA_Write_BW_Test\"", "\"results\": {", "\"MsgSize\": 4096",
                        "\"n_iterations\": 30", "\"BW_peak\": ", "\"BW_average\": ", "\"MsgRate\": ",
                        "\"role\":\"client\"", "\"allocBytesPerOp\":", "\"bwUnit\":\"MiB/sec\"", "\"peerVersion\":\"6.06\"");
        String serverJson = Files.readString(dir.resolve("server.json"), StandardCharsets.UTF_8).strip();
        assertWellFormed(serverJson);
        assertThat(serverJson).contains("\"role\":\"server\"", "\"n_iterations\": 30");

        PerfPair.Result lat = ok("send_lat", "-n", "20", "--out_json_file", dir.resolve("lat.json").toString());
        String latJson = Files.readString(dir.resolve("lat.json"), StandardCharsets.UTF_8).strip();
        assertWellFormed(latJson);
        assertThat(latJson).contains("\"t_min\": ", "\"t_max\": ", "\"t_typical\": ", "\"t_avg\": ",
                "\"t_stdev\": ", "\"percentile_99\": ", "\"percentile_99.9\": ", "\"n_iterations\": 20")
                .doesNotContain("allocBytesPerOp");
        assertThat(lat.client().out()).doesNotContain("bytes allocated");
    }

    /** Parses as strict JSON (perftest's file has line breaks and a space after each colon). */
    static void assertWellFormed(String json) {
        assertThat(org.jrdma.tools.MiniJson.parse(json)).isInstanceOf(java.util.Map.class);
    }

    /**
     * --warmup: both sides run that many unreported iterations first (a SEND receiver must get
     * them all, or the measured run that follows would never line up), and the table reports
     * the measured ones only.
     */
    @ParameterizedTest
    @ValueSource(strings = {"send_bw", "write_bw", "read_bw", "send_lat", "write_lat", "read_lat"})
    void aWarmUpRunsFirstAndIsNotReported(String test) throws Exception {
        PerfPair.Result r = ok(test, "-n", "40", "-s", "1024", "--warmup", "25");
        if (test.endsWith("_bw")) {
            assertBwRow(r.client().out(), 1024, 40);
        } else {
            assertLatRow(r.client().out(), 1024, 40);
        }
    }

    /**
     * perftest's -l: the sender posts its WRs four at a time as one list. Every iteration
     * completes (the row counts all of them) and arrives (the receiver checks each), with one QP
     * and with two taking turns a list each; the banner says what perftest's does, and without -Q
     * the CQ moderation is the list's size, with perftest's notice.
     */
    @ParameterizedTest
    @ValueSource(strings = {"write_bw", "send_bw"})
    void aPostListRunCompletesEveryIteration(String test) throws Exception {
        PerfPair.Result r = ok(test, "-l", "4", "-n", "40", "-s", "1024", "--check");
        for (ToolRun side : List.of(r.client(), r.server())) {
            assertBwRow(side.out(), 1024, 40);
            assertThat(side.out()).contains(" Post List BW Test\n", " Post List       : 4\n", " CQ Moderation   : 4\n",
                    Banner.RESULT_LINE + "\n" + Banner.POST_LIST_CQ_MOD + "\n");
        }
        assertThat(r.server().out()).contains(verifiedLine(test, 40, 40));

        PerfPair.Result two = ok(test, "-l", "4", "-q", "2", "-n", "20", "-s", "512", "-Q", "2", "--check");
        assertBwRow(two.client().out(), 512, 40);
        assertThat(two.client().out()).contains(" Post List       : 4\n", " CQ Moderation   : 2\n")
                .doesNotContain(Banner.POST_LIST_CQ_MOD);
        assertChecked(two.server().out());
    }

    /** A list as deep as the send queue, and a warm-up that ends in a shorter list (6 = 4 + 2). */
    @Test
    void aPostListAsDeepAsTheSendQueueAndAShortLastList() throws Exception {
        PerfPair.Result r = ok("write_bw", "-l", "4", "-t", "4", "-n", "40", "-s", "256", "--warmup", "6");
        assertBwRow(r.client().out(), 256, 40);
        assertThat(r.client().out()).contains(" TX depth        : 4\n", " Post List       : 4\n");
        PerfPair.Result read = ok("read_bw", "-l", "2", "-n", "20", "-s", "256", "--check");
        assertBwRow(read.client().out(), 256, 20);
        assertChecked(read.client().out());
        PerfPair.Result ud = ok("send_bw", "-c", "UD", "-l", "4", "-n", "40", "-s", "512", "--check");
        assertBwRow(ud.client().out(), 512, 40);
        assertChecked(ud.server().out());
        PerfPair.Result both = ok("write_bw", "-b", "-l", "4", "-n", "40", "-s", "512", "--check");
        for (ToolRun side : List.of(both.client(), both.server())) {
            assertThat(side.out()).contains(" Bidirectional Post List BW Test\n");
            assertBwRow(side.out(), 512, 40);
            assertChecked(side.out());
        }
    }

    /** -l's bad combinations are usage errors in perftest's words. */
    @Test
    void postListUsageErrorsSayWhatPerftestSays() {
        String[][] cases = {
            {"Post list is supported in BW tests only", "perf", "send_lat", "-l", "2"},
            {"Number of iterations must be a multiple of post list size (--iters 10, --post_list 4)", "perf", "write_bw",
                "-l", "4", "-n", "10"},
            {"Post list size must be a multiple of CQ moderation (--post_list 4, --cq-mod 3)", "perf", "send_bw", "-l", "4",
                "-Q", "3"},
            {"--post_list 8 is above --tx-depth 4: a list must fit the send queue", "perf", "write_bw", "-l", "8", "-t", "4"}};
        for (String[] c : cases) {
            ToolRun side = ToolRun.of(java.util.Arrays.copyOfRange(c, 1, c.length));
            assertThat(side.code()).as(side.toString()).isEqualTo(ExitCodes.USAGE);
            assertThat(side.err()).as(side.toString()).contains(c[0]);
        }
    }

    @Test
    void usageErrorsExit2() {
        for (String[] args : new String[][] {{"perf", "ping_bw"}, {"perf", "send_lat", "-b"}, {"perf", "write_bw", "-c", "UD"},
                {"perf", "read_bw", "-c", "UC"}, {"perf", "atomic_bw", "-s", "16"}, {"perf", "write_lat", "-e"},
                {"perf", "write_bw", "-a", "-D", "2"}, {"perf", "send_lat", "-q", "2"}, {"perf", "write_bw", "-m", "1000"},
                {"perf", "send_lat", "-n", "3"}, {"perf", "write_bw", "-c", "XRC"}, {"perf", "atomic_lat", "-A", "SWAP"},
                {"perf", "write_bw", "-D", "2", "--warmup", "10"}, {"perf", "send_bw", "--check", "--warmup", "10"},
                {"perf", "send_lat", "--warmup", "-1"}, {"perf", "write_bw", "--timeout-ms", "9223372036854775807"},
                {"perf", "write_bw", "--timeout-ms", "0"}, {"perf", "write_bw", "--run-timeout-s", "99999999999"},
                {"perf", "send_lat", "-l", "4"}, {"perf", "write_bw", "-l", "3", "-n", "10"},
                {"perf", "write_bw", "-l", "4", "-Q", "3"}, {"perf", "write_bw", "-l", "8", "-t", "4"},
                {"perf", "write_bw", "--post_list", "0"}}) {
            ToolRun side = ToolRun.of(args);
            assertThat(side.code()).as(String.join(" ", args) + "\n" + side).isEqualTo(ExitCodes.USAGE);
            assertThat(side.err()).contains("Try 'jrdma perf --help'.");
        }
    }

    /** A server whose port another program holds says so, as pingpong's does; it said "listen on 0.0.0.0/0.0.0.0:P". */
    @Test
    void aServerWhosePortIsTakenSaysSo() throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0)) {
            int port = taken.getLocalPort();
            ToolRun side = ToolRun.of("perf", "write_bw", "-d", DEVICE.name(), "-p", String.valueOf(port), "--timeout-ms", "300");
            assertThat(side.code()).isEqualTo(ExitCodes.FAILURE);
            assertThat(side.err()).isEqualTo("jrdma perf: error: listen on TCP port " + port + " (another program listens there:"
                    + " choose another -p): Address already in use\n");
        }
    }

    /**
     * A client with no server says once, on one line of its own stderr as pingpong does, that it
     * tries again and until when, then fails with exit 1. The notice went to the platform logger:
     * two lines with a date and a class name, on the process's stderr whatever the tool's was.
     */
    @Test
    void aClientWithNoServerSaysOnceThatItRetriesThenFailsWithExit1() throws Exception {
        int port = FreeLoopback.tcpPort();
        ToolRun side = ToolRun.of("perf", "write_bw", "-d", DEVICE.name(), "-p", String.valueOf(port), "--timeout-ms", "300",
                "127.0.0.1");
        assertThat(side.code()).isEqualTo(ExitCodes.FAILURE);
        assertThat(side.err()).matches("jrdma perf: 127\\.0\\.0\\.1:" + port + " refused the connection: no server listens there"
                + " yet; trying again until \\d\\d:\\d\\d:\\d\\d \\(0\\.3 s\\)\n"
                + "jrdma perf: error: connect to 127\\.0\\.0\\.1:" + port + ": refused \\(tried for 0\\.\\d s; .*\n");
    }

    /**
     * Both sides need the same flags, and nothing tells a side the other's: what goes wrong
     * when they differ says which flags to compare (found in the adversarial pass, where these
     * ended in a bare timeout, "keys changed" or "message 0 differs at byte 2").
     */
    @Test
    void mismatchedFlagsSayWhichToCompare() throws Exception {
        PerfPair.Result check = PerfPair.runOn("127.0.0.1", DEVICE.name(), DEVICE.name(), List.of("--check"), List.of(),
                "send_bw", "-n", "50", "-s", "1024");
        assertThat(check.server().code()).as(check.toString()).isEqualTo(ExitCodes.FAILURE);
        assertThat(check.server().err()).contains("the first: message 0 on QP 0 came without its number (immediate data): the"
                + " peer does not run --check, and it must, on both sides");
        PerfPair.Result clientOnly = PerfPair.runOn("127.0.0.1", DEVICE.name(), DEVICE.name(), List.of(), List.of("--check"),
                "send_bw", "-n", "50", "-s", "1024");
        assertThat(clientOnly.client().out()).contains(NOTHING_VERIFIED); // it cannot know that its peer checks nothing

        PerfPair.Result qps = PerfPair.runOn("127.0.0.1", DEVICE.name(), DEVICE.name(), List.of("-q", "2"), List.of(),
                "read_bw", "-n", "20");
        assertThat(qps.client().err()).as(qps.toString()).contains("keys changed between the first and the second exchange (do"
                + " both sides run the same -q?)");

        PerfPair.Result iters = PerfPair.runOn("127.0.0.1", DEVICE.name(), DEVICE.name(), List.of("-n", "50"),
                List.of("-n", "100"),
                "send_bw", "-s", "1024", "--timeout-ms", "1500");
        assertThat(iters.client().err()).as(iters.toString()).contains("no completion within 1500 ms (sender done: false): the"
                + " peer stopped — it ended (do both sides run the same test, -n, -q and -s?)");
    }

    private static String line(String out, String prefix) {
        return out.lines().filter(l -> l.startsWith(prefix)).findFirst().orElseThrow();
    }
}
