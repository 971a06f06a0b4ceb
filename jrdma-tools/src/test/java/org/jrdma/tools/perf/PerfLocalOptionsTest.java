package org.jrdma.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.tools.FreeLoopback;
import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.OwnDevices;
import org.jrdma.tools.ToolRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Options that only this side's device and file system decide are checked before any network
 * activity, on both sides, each with one line naming the option, the limit and what to do. A
 * server that fails them never says it waits for a client; a client never connects (a socket
 * listening on its port sees no one).
 */
class PerfLocalOptionsTest {
    @TempDir
    static Path dir;

    @RegisterExtension
    static final OwnDevices DEVICE = new OwnDevices("local");

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
            "write_bw | -x 99 | --gid-index 99: device DEV has 1 GID (index 0); 'jrdma devinfo -d DEV -v' lists them",
            "read_bw | -o 200 | --outs 200 is above device DEV's max_qp_rd_atom 128",
            "write_bw | -q 64 -t 16384 | --qp 64 × a send queue of 16384 needs a CQ of 1048592 entries, above device DEV's "
                    + "max_cqe 65535; give fewer QPs or a smaller depth",
            "send_bw | -q 8 -r 16384 -n 20000 | --qp 8 × --rx-depth 16384 needs a CQ of 131088 entries, above device DEV's max_cqe "
                    + "65535; give fewer QPs or a smaller depth",
            "send_bw | -c UD -s 8192 | --size 8192: a UD message is at most the path MTU, and this side's is 4096 bytes",
            "send_lat | -I 500 | --inline_size 500 is above the device's max_inline_data 400",
            "write_bw | --out_json_file MISSING/x.json | --out_json_file MISSING/x.json: directory MISSING does not exist "
                    + "(create it, or name a file in another)",
            "write_bw | --out_json_file DIR | --out_json_file DIR is a directory; name a file"})
    void aBadLocalOptionFailsBeforeAnyNetworkActivity(String test, String flags, String message) throws Exception {
        Path missing = dir.resolve("missing");
        String expected = "jrdma perf: error: " + message.replace("DEV", DEVICE.name()).replace("MISSING", missing.toString())
                .replace("DIR", dir.toString()) + " (EINVAL)";
        List<String> args = new ArrayList<>(List.of("perf", test, "-d", DEVICE.name(), "--timeout-ms", "5000"));
        for (String f : flags.split(" ")) {
            args.add(f.replace("MISSING", missing.toString()).replace("DIR", dir.toString()));
        }

        ToolRun server = ToolRun.of(withPort(args, FreeLoopback.tcpPort()));
        assertThat(server.code()).as(server.toString()).isEqualTo(ExitCodes.FAILURE);
        assertThat(server.err()).as(server.toString()).isEqualTo(expected + "\n");
        assertThat(server.out()).doesNotContain("Waiting for client");

        try (ServerSocket listening = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
            List<String> client = withPort(args, listening.getLocalPort());
            client.add("127.0.0.1");
            ToolRun c = ToolRun.of(client);
            assertThat(c.code()).as(c.toString()).isEqualTo(ExitCodes.FAILURE);
            assertThat(c.err()).as(c.toString()).isEqualTo(expected + "\n");
            listening.setSoTimeout(200);
            assertThatThrownBy(listening::accept).as("the client connected").isInstanceOf(SocketTimeoutException.class);
        }
    }

    private static List<String> withPort(List<String> args, int port) {
        List<String> withPort = new ArrayList<>(args);
        withPort.addAll(List.of("-p", String.valueOf(port)));
        return withPort;
    }

    /** The directory was there at the start and went away during the run: the error says so, and that the results are not in it. */
    @Test
    void aJsonFileThatCannotBeWrittenAtTheEndSaysWhy() {
        Path gone = dir.resolve("gone").resolve("r.json");
        assertThatThrownBy(() -> PerfJson.write(gone, "{}")).isInstanceOf(UncheckedIOException.class)
                .hasMessage("--out_json_file " + gone + " (in " + gone.getParent() + "): no such file or directory; the results"
                        + " above are not in it");
    }

    /**
     * A run by iterations keeps a timestamp per iteration on the side that posts: two billion
     * of them do not fit in a Java array (nor in most heaps), and the run used to fail after the
     * connection (ArithmeticException or OutOfMemoryError). Both send_lat sides time their posts.
     */
    @Test
    void moreIterationsThanTheHeapCanTimeFailBeforeAnyNetworkActivity() throws Exception {
        for (boolean client : new boolean[] {false, true}) {
            try (ServerSocket listening = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
                List<String> args = new ArrayList<>(List.of("perf", "send_lat", "-d", DEVICE.name(), "-n", "2147483647",
                        "--timeout-ms", "5000", "-p", String.valueOf(client ? listening.getLocalPort() : FreeLoopback.tcpPort())));
                if (client) {
                    args.add("127.0.0.1");
                }
                ToolRun r = ToolRun.of(args);
                assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.FAILURE);
                assertThat(r.err()).as(r.toString()).matches("jrdma perf: error: --iters 2147483647 keeps a timestamp per "
                        + "iteration: 32\\.0 GiB, more than this JVM can hold \\(heap \\d+\\.\\d GiB; JAVA_TOOL_OPTIONS=-Xmx… "
                        + "gives it more\\); --duration measures a long run without them \\(EINVAL\\)\n");
                assertThat(r.out()).doesNotContain("Waiting for client");
                listening.setSoTimeout(200);
                assertThatThrownBy(listening::accept).isInstanceOf(SocketTimeoutException.class);
            }
        }
    }

    @Test
    void timestampsAreCountedPerQpAndOnlyWhereTheyAreKept() {
        PerfConfig bw = TablesTest.config(PerfTest.WRITE_BW, "h", false, org.jrdma.verbs.QpType.RC, AtomicType.FETCH_AND_ADD);
        LocalLimits.checkTimestamps(bw, 1L << 30); // 5000 × 9 bytes
        PerfConfig many = new PerfConfig(bw.test(), "h", null, 1, 8, true, false, 100_000_000, 0, 64, false, false, 0, null, 0,
                128, 512, 100, 16, bw.connection(), bw.atomicType(), false, null, false, false, bw.timeout(), bw.runTimeout(), 0, false);
        assertThatThrownBy(() -> LocalLimits.checkTimestamps(many, 64L << 30)).hasMessageContaining("--iters 100000000 × --qp 64");
        PerfConfig passiveServer = new PerfConfig(bw.test(), null, null, 1, 8, true, false, 100_000_000, 0, 64, false, false, 0,
                null, 0, 128, 512, 100, 16, bw.connection(), bw.atomicType(), false, null, false, false, bw.timeout(),
                bw.runTimeout(), 0, false);
        LocalLimits.checkTimestamps(passiveServer, 1L << 30); // a write_bw server times nothing
    }
}
