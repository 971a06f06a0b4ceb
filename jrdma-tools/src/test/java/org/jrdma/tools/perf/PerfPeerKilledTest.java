package org.jrdma.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jrdma.tools.FreeLoopback;
import org.jrdma.tools.JrdmaProcess;
import org.jrdma.tools.OwnDevices;
import org.jrdma.tools.ToolRun;
import org.jrdma.verbs.Verbs;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A side whose peer is killed (kill -9) ends at once, saying that its peer closed the out-of-band
 * connection — the kernel closes a killed process's socket — where a bandwidth receiver, or a UC
 * latency side, waited all of --timeout-ms (60 s by default): nothing outstanding on its side can
 * time out. The survivor runs in this JVM (its device's counters say when the run is under way),
 * the killed side in a child process; both have a timeout far longer than the test waits.
 */
class PerfPeerKilledTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @RegisterExtension
    static final OwnDevices DEVICES = new OwnDevices("kills", "killc");

    @ParameterizedTest(name = "{0} -c {1} {2}")
    @CsvSource({"send_bw, RC, ''", "send_bw, UC, ''", "send_bw, RC, -e", "write_lat, UC, ''", "send_lat, UC, -e"})
    void aSideWhosePeerIsKilledEndsAtOnce(String test, String connection, String events) throws Exception {
        List<String> args = new ArrayList<>(List.of("perf", test, "-c", connection, "-n", "100000000", "-p",
                String.valueOf(FreeLoopback.tcpPort()), "--timeout-ms", "600000"));
        if (!events.isEmpty()) {
            args.add(events);
        }
        List<String> serverArgs = new ArrayList<>(args);
        serverArgs.addAll(List.of("-d", DEVICES.server()));
        List<String> clientArgs = new ArrayList<>(args);
        clientArgs.addAll(List.of("-d", DEVICES.client(), "127.0.0.1"));
        long receivedBefore = receivedPackets();
        ExecutorService side = Executors.newSingleThreadExecutor();
        Process client = null;
        try {
            CompletableFuture<ToolRun> server = CompletableFuture.supplyAsync(() -> ToolRun.of(serverArgs), side);
            client = JrdmaProcess.start(List.of(), Map.of("JRDMA_SOFT_DEVICES", DEVICES.spec(1)), clientArgs);
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (receivedPackets() <= receivedBefore) { // the peer sends: both sides are in their run
                assertThat(System.nanoTime()).as("no packet reached the receiver within " + WAIT).isLessThan(deadline);
                assertThat(client.isAlive()).as("the peer ended before sending").isTrue();
                LockSupport.parkNanos(1_000_000); // a poll of the condition
            }
            client.destroyForcibly(); // SIGKILL
            ToolRun r = server.get(WAIT.toSeconds(), TimeUnit.SECONDS); // well before its --timeout-ms
            assertThat(r.code()).as(r.toString()).isEqualTo(1);
            assertThat(r.err()).as(r.toString()).matches("jrdma perf: error: the peer closed the out-of-band connection during"
                    + " the run(, after \\d+ messages received|, while waiting for the peer's (WRITE|message)): was it killed\\?"
                    + " \\(its own output says why it ended\\) \\(EIO\\)\n");
        } finally {
            if (client != null) {
                client.destroyForcibly();
            }
            side.shutdownNow();
        }
    }

    /** Packets the surviving side's device has taken in (this process's, live). */
    private static long receivedPackets() {
        return Verbs.device(DEVICES.server()).counters().getOrDefault("rcvd_packets", 0L);
    }
}
