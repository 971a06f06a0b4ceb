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

    /**
     * Issue 12 item 5, across processes: a persistent server whose client is killed with
     * SIGKILL mid-session serves the next client (at once: the dead one's session ends on its
     * own, by the retry counter or --timeout-ms), reports the dead one in one line, and runs on.
     */
    @Test
    void aPersistentServerServesTheNextClientAfterOneIsKilled() throws Exception {
        Persistent p = new Persistent();
        try {
            Process doomed = p.client("-C", "0", "-V");
            p.output.await("the doomed client's session", o -> o.contains("established"), WAIT);
            doomed.destroyForcibly();
            assertThat(doomed.waitFor(60, TimeUnit.SECONDS)).isTrue();
            p.assertServesAClient();
            p.output.await("the killed client reported", o -> o.contains("; the server (-P) goes on"), WAIT);
            assertThat(p.server.isAlive()).as(p.output.text()).isTrue();
            p.assertServesAClient();
        } finally {
            p.destroy();
        }
    }

    /** A client stopped with SIGSTOP holds up nobody: the next is served meanwhile, and the stopped one is let go. */
    @Test
    void aPersistentServerServesOthersWhileAClientIsStoppedAndLetsTheStoppedOneGo() throws Exception {
        Persistent p = new Persistent();
        Process stopped = null;
        try {
            stopped = p.client("-C", "0", "-V");
            p.output.await("the stopped client's session", o -> o.contains("established"), WAIT);
            signal("STOP", stopped);
            p.assertServesAClient();
            p.output.await("the stopped client let go", o -> o.contains("; the server (-P) goes on"), WAIT);
            assertThat(p.server.isAlive()).as(p.output.text()).isTrue();
            p.assertServesAClient();
        } finally {
            if (stopped != null) {
                signal("CONT", stopped);
                stopped.destroyForcibly();
            }
            p.destroy();
        }
    }

    /**
     * ^C or SIGTERM of an rping client is, for its server, a client that disconnected — the kernel
     * destroys a dying process's CM ids (a DREQ) — so the server without -P ends with 0, as rping's
     * does; it ended with "retry counter exceeded" (exit 1) when the soft device died silently.
     */
    @Test
    void aClientEndedBySigtermDisconnectsAndTheServerEndsCleanly() throws Exception {
        String serverSpec = FreeLoopback.deviceSpec("tsrv");
        String serverAddr = serverSpec.substring(serverSpec.indexOf('=') + 1);
        Process server = start(serverSpec, "rping", "-s", "-d", "-a", serverAddr);
        ChildOutput serverOut = new ChildOutput(server);
        Process client = null;
        try {
            serverOut.await("the listening line", o -> o.contains("rping: listening on"), WAIT);
            client = start(FreeLoopback.deviceSpec("tcli"), "rping", "-c", "-a", serverAddr, "-C", "0", "-V");
            serverOut.await("the client's session", o -> o.contains("established"), WAIT);
            client.destroy(); // SIGTERM
            assertThat(server.waitFor(60, TimeUnit.SECONDS)).as(serverOut.text()).isTrue();
            assertThat(server.exitValue()).as(serverOut.text()).isZero();
            assertThat(serverOut.text()).contains("server DISCONNECT EVENT...").doesNotContain("error");
        } finally {
            server.destroyForcibly();
            if (client != null) {
                client.destroyForcibly();
            }
        }
    }

    /** The other way round: a -P server ended by SIGTERM disconnects its clients; a -C 0 client ends with 0, as rping's. */
    @Test
    void aServerEndedBySigtermDisconnectsItsClients() throws Exception {
        Persistent p = new Persistent();
        Process client = null;
        try {
            client = p.client("-C", "0", "-V");
            ChildOutput clientOut = new ChildOutput(client);
            p.output.await("the client's session", o -> o.contains("established"), WAIT);
            p.server.destroy(); // SIGTERM
            assertThat(client.waitFor(60, TimeUnit.SECONDS)).as(clientOut.text()).isTrue();
            assertThat(client.exitValue()).as(clientOut.text()).isZero();
            assertThat(clientOut.text()).isEqualTo("client DISCONNECT EVENT..." + System.lineSeparator());
        } finally {
            if (client != null) {
                client.destroyForcibly();
            }
            p.destroy();
        }
    }

    private static final java.time.Duration WAIT = java.time.Duration.ofSeconds(60);

    private static void signal(String name, Process p) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(p.pid())).inheritIO().start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0).as("kill -" + name).isTrue();
    }

    /** An {@code rping -s -P -d -p 0} process on its own device, and clients on devices of their own. */
    private final class Persistent {
        final String address;
        final Process server;
        final ChildOutput output;
        final int port;

        Persistent() throws Exception {
            String spec = FreeLoopback.deviceSpec("psrv");
            address = spec.substring(spec.indexOf('=') + 1);
            server = start(spec, "rping", "-s", "-P", "-d", "-a", address, "-p", "0");
            output = new ChildOutput(server);
            output.await("the listening line", o -> o.contains("rping: listening on"), WAIT);
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("listening on /[0-9.]+:(\\d+)").matcher(output.text());
            assertThat(m.find()).isTrue();
            port = Integer.parseInt(m.group(1));
        }

        Process client(String... flags) throws Exception {
            List<String> args = new java.util.ArrayList<>(List.of("rping", "-c", "-a", address, "-p", "" + port));
            args.addAll(List.of(flags));
            return start(FreeLoopback.deviceSpec("pcli"), args.toArray(String[]::new));
        }

        void assertServesAClient() throws Exception {
            Process c = client("-C", "5", "-V", "-d");
            assertThat(c.waitFor(120, TimeUnit.SECONDS)).as("client finished").isTrue();
            String out = new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(c.exitValue()).as(out + "\nserver:\n" + output.text()).isZero();
            assertThat(out).contains("rping: 5 pings done");
        }

        void destroy() throws Exception {
            server.destroyForcibly();
            server.waitFor(60, TimeUnit.SECONDS);
        }
    }

    private Process start(String devices, String... args) throws Exception {
        return JrdmaProcess.start(List.of(), Map.of("JRDMA_SOFT_DEVICES", devices, "JRDMA_STATS_DIR", stats.toString()),
                List.of(args));
    }
}
