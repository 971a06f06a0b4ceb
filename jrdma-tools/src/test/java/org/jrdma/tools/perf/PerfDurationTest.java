package org.jrdma.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.jrdma.tools.OwnDevices;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code -D}: a run by duration ends cleanly on both sides (exit 0, its row printed) for every
 * test and every transport it supports, with and without {@code --check}. Each side's run ends
 * at its own deadline, a moment apart from the other's, so what one side posted before its
 * deadline may meet a peer whose run is over: a SEND receiver keeps draining until the sender's
 * next out-of-band message, and a latency side does not wait for answers after its deadline.
 * Server and client are on two devices (an engine each, as two processes).
 */
class PerfDurationTest {
    @RegisterExtension
    static final OwnDevices DEVICES = new OwnDevices("durs", "durc");

    /**
     * The case is send_bw --check -D on RC with 64 KiB: the receiver stopped reposting
     * at its deadline while the sender, waiting for every completion, was RNR-NAKed forever —
     * "no completion within … (sender done: false)" on one side, "unexpected EOF" on the other.
     * The bandwidth tests run 64 KiB (UD: the path MTU); -q 2, -b and -e are the variants of the
     * SEND tests, where the receiver drains.
     */
    @ParameterizedTest(name = "{0} -c {1} {2} --check={3}")
    @CsvSource({
            "send_bw, RC, '', true", "send_bw, RC, '', false", "send_bw, UC, '', true", "send_bw, UC, '', false",
            "send_bw, UD, '', true", "send_bw, UD, '', false", "send_bw, RC, -b, true", "send_bw, RC, -q 2, true",
            "send_bw, RC, -e, true", "send_bw, UD, -e, true", "send_lat, RC, -e, true", "read_lat, RC, -e, true",
            "write_bw, RC, '', true", "write_bw, RC, '', false", "write_bw, UC, '', true", "write_bw, UC, '', false",
            "read_bw, RC, '', true", "read_bw, RC, '', false", "atomic_bw, RC, '', true", "atomic_bw, RC, '', false",
            "send_lat, RC, '', true", "send_lat, RC, '', false", "send_lat, UC, '', true", "send_lat, UC, '', false",
            "send_lat, UD, '', true", "send_lat, UD, '', false",
            "write_lat, RC, '', true", "write_lat, RC, '', false", "write_lat, UC, '', true", "write_lat, UC, '', false",
            "read_lat, RC, '', true", "read_lat, RC, '', false", "atomic_lat, RC, '', true", "atomic_lat, RC, '', false"})
    void aDurationRunEndsCleanlyOnBothSides(String test, String connection, String extra, boolean check) throws Exception {
        boolean bw = test.endsWith("_bw");
        List<String> args = new ArrayList<>(List.of(test, "-D", "1", "-c", connection));
        if (!extra.isEmpty()) {
            args.addAll(List.of(extra.split(" ")));
        }
        if (bw && !test.startsWith("atomic") && !connection.equals("UD")) {
            args.addAll(List.of("-s", "65536"));
        }
        if (check) {
            args.add("--check");
        }
        PerfPair.Result r = PerfPair.runOn("127.0.0.1", DEVICES.server(), DEVICES.client(), List.of(), List.of(),
                args.toArray(String[]::new));
        assertThat(r.client().code()).as(r.toString()).isZero();
        assertThat(r.server().code()).as(r.toString()).isZero();
        if (bw) {
            // -D reports no peak (0.00), as perftest
            Pattern row = Pattern.compile("^ \\d+ +[1-9]\\d* +0\\.00 +\\d+\\.\\d{2}", Pattern.MULTILINE);
            assertThat(row.matcher(r.client().out()).find()).as(r.toString()).isTrue();
            assertThat(row.matcher(r.server().out()).find()).as(r.toString()).isTrue();
        } else {
            assertThat(r.client().out()).contains(LatTable.durationHeader());
            assertThat(r.client().out()).containsPattern("\n \\d+ +[1-9]\\d* +\\d+\\.\\d{2} ");
        }
        if (check) {
            boolean serverChecks = test.startsWith("send") || test.equals("write_lat") || test.equals("write_bw")
                    || test.equals("atomic_bw") || extra.equals("-b");
            if (serverChecks) {
                PerfEndToEndTest.assertChecked(r.server().out());
            }
            boolean clientChecks = !test.equals("send_bw") || extra.equals("-b");
            if (clientChecks && !test.equals("write_bw")) {
                PerfEndToEndTest.assertChecked(r.client().out());
            }
        }
    }

    /**
     * The hang, made certain: the receiver's run (-D 1) ends two seconds before the sender's
     * (-D 3), whose --check then waits for every completion on RC. Before, the receiver stopped
     * reposting at its deadline and the sender was RNR-NAKed until --timeout-ms; now the
     * receiver drains until the sender's closing message, and both sides end. With -b each
     * side is both, and each drains for the other.
     */
    @ParameterizedTest(name = "send_bw {0}")
    @CsvSource({"''", "-b"})
    void aReceiverWhoseRunEndsFirstKeepsDrainingForTheSender(String extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("send_bw", "-s", "65536", "--check"));
        if (!extra.isEmpty()) {
            args.add(extra);
        }
        PerfPair.Result r = PerfPair.runOn("127.0.0.1", DEVICES.server(), DEVICES.client(), List.of("-D", "1"), List.of("-D", "3"),
                args.toArray(String[]::new));
        assertThat(r.client().code()).as(r.toString()).isZero();
        assertThat(r.server().code()).as(r.toString()).isZero();
        PerfEndToEndTest.assertChecked(r.server().out());
        if (!extra.isEmpty()) {
            PerfEndToEndTest.assertChecked(r.client().out());
        }
    }

    /**
     * A side that waits over TCP while its peer measures (a passive server, a receiver at its
     * closing exchange, a read_lat server) waits --run-timeout-s on top of -D: with -D longer
     * than the run timeout the server timed out in the middle of the client's run.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"write_bw", "send_bw", "read_lat"})
    void aRunLongerThanTheRunTimeoutIsWaitedFor(String test) throws Exception {
        PerfPair.Result r = PerfPair.runOn("127.0.0.1", DEVICES.server(), DEVICES.client(), List.of(), List.of(),
                test, "-D", "3", "--run-timeout-s", "1");
        assertThat(r.client().code()).as(r.toString()).isZero();
        assertThat(r.server().code()).as(r.toString()).isZero();
    }
}
