package org.jrdma.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jrdma.tools.FreeLoopback;
import org.jrdma.tools.JrdmaProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * --run_infinitely, as a user runs it: two processes, the client printing a bandwidth row every
 * -D seconds and never ending on its own, until it is killed (the test kills both).
 */
class PerfRunInfinitelyTest {
    @TempDir
    Path stats;

    @Test
    void aRowEveryIntervalUntilKilled() throws Exception {
        int port = FreeLoopback.tcpPort();
        // soft's default device, as before shm: in auto a peer on this host gets shm's
        List<String> common = List.of("perf", "write_bw", "-s", "4096", "--run_infinitely", "-D", "1", "-p", String.valueOf(port),
                "--timeout-ms", "30000", "--provider", "soft");
        Process server = start(common);
        StringBuffer serverOut = new StringBuffer();
        Thread drain = Thread.ofVirtual().start(() -> {
            try {
                server.getInputStream().transferTo(new java.io.OutputStream() {
                    @Override
                    public void write(int b) {
                        serverOut.append((char) b);
                    }
                });
            } catch (java.io.IOException ignored) {
                // killed
            }
        });
        List<String> clientArgs = new ArrayList<>(common);
        clientArgs.add("127.0.0.1");
        Process client = start(clientArgs);
        try {
            List<String> seen = new ArrayList<>();
            CompletableFuture<Integer> rows = CompletableFuture.supplyAsync(() -> {
                int n = 0;
                try (BufferedReader r = new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        synchronized (seen) {
                            seen.add(line);
                        }
                        if (line.matches(" 4096 +\\d+ +0\\.00 +\\d+\\.\\d\\d\\s+\\d+\\.\\d{6}") && ++n == 3) {
                            return n;
                        }
                    }
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                return n;
            });
            int n = rows.get(120, TimeUnit.SECONDS);
            synchronized (seen) {
                if (n != 3) {
                    server.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                    drain.join(10_000);
                }
                assertThat(n).as(String.join("\n", seen) + "\nSERVER:\n" + serverOut).isEqualTo(3);
                assertThat(seen).contains(Banner.NO_PEAK_WARNING);
            }
            assertThat(client.isAlive()).as("still running after three rows").isTrue();
            assertThat(server.isAlive()).isTrue();
        } finally {
            client.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            server.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    private Process start(List<String> args) throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("JRDMA_SOFT_DEVICES", null);
        env.put("JRDMA_STATS_DIR", stats.toString());
        return JrdmaProcess.start(List.of(), env, args);
    }
}
