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
 * A bandwidth receiver whose sender is killed (kill -9) ends at once, saying that its peer
 * closed the out-of-band connection — the kernel closes a killed process's socket — where it
 * waited all of --timeout-ms (60 s by default): nothing outstanding on a receiver's side can time
 * out. The receiver runs in this JVM (its device's counters say when the run is under way), the
 * sender in a child process; both have a timeout far longer than the test waits.
 */
class PerfPeerKilledTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @RegisterExtension
    static final OwnDevices DEVICES = new OwnDevices("kills", "killc");

    @ParameterizedTest(name = "send_bw -c {0} {1}")
    @CsvSource({"RC, ''", "UC, ''", "RC, -e"})
    void aReceiverWhoseSenderIsKilledEndsAtOnce(String connection, String events) throws Exception {
        List<String> args = new ArrayList<>(List.of("perf", "send_bw", "-c", connection, "-n", "100000000", "-p",
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
            while (receivedPackets() <= receivedBefore) { // the sender sends: both sides are in their run
                assertThat(System.nanoTime()).as("no packet reached the receiver within " + WAIT).isLessThan(deadline);
                assertThat(client.isAlive()).as("the sender ended before sending").isTrue();
                LockSupport.parkNanos(1_000_000); // a poll of the condition
            }
            client.destroyForcibly(); // SIGKILL
            ToolRun r = server.get(WAIT.toSeconds(), TimeUnit.SECONDS); // well before its --timeout-ms
            assertThat(r.code()).as(r.toString()).isEqualTo(1);
            assertThat(r.err()).as(r.toString()).matches("jrdma perf: error: the peer closed the out-of-band connection during"
                    + " the run, after \\d+ messages received: was it killed\\? \\(its own output says why it ended\\) \\(EIO\\)\n");
        } finally {
            if (client != null) {
                client.destroyForcibly();
            }
            side.shutdownNow();
        }
    }

    /** Packets the receiver's device has taken in (this process's, live). */
    private static long receivedPackets() {
        return Verbs.device(DEVICES.server()).counters().getOrDefault("rcvd_packets", 0L);
    }
}
