package org.jrdma.tools.rping;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jrdma.tools.FreeLoopback;
import org.jrdma.tools.JrdmaProcess;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The "done when": {@code jrdma rping -s} and {@code jrdma rping -c -a ADDR -V -C 100}
 * complete between two processes — each with its own soft device, as two hosts would be.
 */
class RpingProcessesTest {
    @TempDir
    Path stats;

    @Test
    void aServerAndAClientProcessPingOneHundredTimesAndValidate() throws Exception {
        String serverSpec = FreeLoopback.deviceSpec("srv");
        String clientSpec = FreeLoopback.deviceSpec("cli");
        String serverAddr = serverSpec.substring(serverSpec.indexOf('=') + 1);
        Process server = start(serverSpec, "rping", "-s", "-a", serverAddr, "-v");
        // The client's REQ is retransmitted until the server's listener answers, so it may start at once.
        Process client = start(clientSpec, "rping", "-c", "-a", serverAddr, "-V", "-C", "100", "-v");
        try {
            assertThat(client.waitFor(120, TimeUnit.SECONDS)).as("client finished").isTrue();
            assertThat(server.waitFor(60, TimeUnit.SECONDS)).as("server finished after the client disconnected").isTrue();
            String clientOut = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String serverOut = new String(server.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(client.exitValue()).as(clientOut).isZero();
            assertThat(server.exitValue()).as(serverOut).isZero();

            List<String> pings = clientOut.lines().filter(l -> l.startsWith("ping data: ")).toList();
            assertThat(pings).hasSize(100);
            // rping's text: "rdma-ping-N: " then letters from a start that moves one per ping, 63 characters in 64 bytes.
            assertThat(pings.get(0)).isEqualTo("ping data: rdma-ping-0: ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqr");
            assertThat(pings.get(99)).isEqualTo("ping data: rdma-ping-99: jklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`");
            List<String> served = serverOut.lines().filter(l -> l.startsWith("server ping data: ")).toList();
            assertThat(served).hasSize(100);
            assertThat(served.get(99)).isEqualTo("server " + pings.get(99));
        } finally {
            server.destroyForcibly();
            client.destroyForcibly();
        }
    }

    private Process start(String devices, String... args) throws Exception {
        return JrdmaProcess.start(List.of(), Map.of("JRDMA_SOFT_DEVICES", devices, "JRDMA_STATS_DIR", stats.toString()),
                List.of(args));
    }
}
