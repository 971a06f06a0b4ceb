package org.jrdma.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Two processes on one host, with no device flags: the server's default loopback device binds
 * 127.0.0.1 (or the next free 127.0.0.x), the client's moves to another 127.0.0.x, and they
 * ping-pong over RDMA after a TCP exchange, like two ibv_rc_pingpong processes.
 */
class PingpongProcessesTest {
    /** The counter files of this test's processes: its own, so the totals are exact. */
    @org.junit.jupiter.api.io.TempDir
    java.nio.file.Path stats;

    @Test
    void serverAndClientProcessesPingPongWithNoDeviceFlags() throws Exception {
        int port = FreeLoopback.tcpPort();
        // soft's default device, whose counters are read below: in auto a peer on this host gets shm's
        Process server = start("pingpong", "--provider", "soft", "-c", "-p", String.valueOf(port), "-n", "200", "-s", "1500");
        Process client = start("pingpong", "--provider", "soft", "-c", "-p", String.valueOf(port), "-n", "200", "-s", "1500",
                "127.0.0.1");
        try {
            assertThat(client.waitFor(120, TimeUnit.SECONDS)).as("client finished").isTrue();
            assertThat(server.waitFor(60, TimeUnit.SECONDS)).as("server finished").isTrue();
            String clientOut = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String serverOut = new String(server.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(client.exitValue()).as(clientOut).isZero();
            assertThat(server.exitValue()).as(serverOut).isZero();
            for (String out : List.of(clientOut, serverOut)) {
                assertThat(out).contains("  local address:  LID 0x0000, QPN 0x", "  remote address: LID 0x0000, QPN 0x",
                        "600000 bytes in", "200 iters in", "200 messages verified");
            }
            // Each side's remote line is the other side's local line.
            assertThat(line(clientOut, "remote address:").substring("remote address:".length()).strip())
                    .isEqualTo(line(serverOut, "local address:").substring("local address:".length()).strip());

            // A third process reads the device counters both have left behind, as ibv_devinfo
            // -v / rdma statistic would read a NIC's: 200 messages of 2 packets at MTU 1024
            // went each way, plus the ACKs.
            Process info = start("devinfo", "-d", "soft_lo", "-v");
            assertThat(info.waitFor(60, TimeUnit.SECONDS)).isTrue();
            String infoOut = new String(info.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(info.exitValue()).as(infoOut).isZero();
            assertThat(DevinfoCommandTest.counter(infoOut, "sent_packets")).as(infoOut).isGreaterThanOrEqualTo(2 * 200 * 2);
            assertThat(DevinfoCommandTest.counter(infoOut, "rcvd_packets")).as(infoOut).isGreaterThanOrEqualTo(2 * 200 * 2);
        } finally {
            server.destroyForcibly();
            client.destroyForcibly();
        }
    }

    private static String line(String out, String prefix) {
        return out.lines().map(String::strip).filter(l -> l.startsWith(prefix)).findFirst().orElseThrow();
    }

    private Process start(String... args) throws Exception {
        java.util.Map<String, String> env = new java.util.HashMap<>();
        env.put("JRDMA_SOFT_DEVICES", null); // "no flags": the default device set
        env.put("JRDMA_STATS_DIR", stats.toString());
        return JrdmaProcess.start(List.of(), env, List.of(args));
    }
}
