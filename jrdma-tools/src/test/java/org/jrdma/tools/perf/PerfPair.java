package org.jrdma.tools.perf;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.jrdma.tools.FreeLoopback;
import org.jrdma.tools.ToolRun;

/**
 * Runs {@code jrdma perf} as server and client in this JVM, each on its own thread with its own
 * output, on soft devices of the test's own ({@link org.jrdma.tools.OwnDevices}) and a free TCP port.
 */
final class PerfPair {
    record Result(ToolRun server, ToolRun client) {
        @Override
        public String toString() {
            return "SERVER " + server + "\nCLIENT " + client;
        }
    }

    private PerfPair() {
    }

    /** Server and client with the same perf arguments; the client connects to 127.0.0.1. */
    static Result run(String device, String... perfArgs) throws Exception {
        return runTo("127.0.0.1", device, perfArgs);
    }

    /** The same, the client connecting to {@code host} (with -R: the device's address, where its CM answers). */
    static Result runTo(String host, String device, String... perfArgs) throws Exception {
        return runOn(host, device, device, List.of(), List.of(), perfArgs);
    }

    /**
     * Server on {@code serverDevice}, client on {@code clientDevice}, each with its own extra
     * arguments: on two devices each side has its own engine and device thread, as two
     * processes have (one device serves both QPs from one engine).
     */
    static Result runOn(String host, String serverDevice, String clientDevice, List<String> serverOnly, List<String> clientOnly,
            String... perfArgs) throws Exception {
        return runOn(host, serverDevice, clientDevice, serverOnly, clientOnly, 30_000, 0, perfArgs);
    }

    /**
     * The same with the sides' {@code --timeout-ms}, and with {@code withinSeconds} > 0 both
     * sides must have ended that long after they started (else a TimeoutException): a test that
     * must see a run end well before the sides' own timeouts gives them long ones and waits less.
     */
    static Result runOn(String host, String serverDevice, String clientDevice, List<String> serverOnly, List<String> clientOnly,
            int timeoutMs, int withinSeconds, String... perfArgs) throws Exception {
        int port = FreeLoopback.tcpPort();
        List<String> common = new ArrayList<>(List.of("perf"));
        common.addAll(List.of(perfArgs));
        common.addAll(List.of("-p", String.valueOf(port)));
        if (!common.contains("--timeout-ms")) {
            common.addAll(List.of("--timeout-ms", String.valueOf(timeoutMs)));
        }
        if (!common.contains("--run-timeout-s") && !serverOnly.contains("--run-timeout-s") && !clientOnly.contains("--run-timeout-s")) {
            common.addAll(List.of("--run-timeout-s", "120"));
        }
        List<String> server = new ArrayList<>(common);
        server.addAll(List.of("-d", serverDevice));
        server.addAll(serverOnly);
        List<String> client = new ArrayList<>(common);
        client.addAll(List.of("-d", clientDevice));
        client.addAll(clientOnly);
        client.add(host);
        if (withinSeconds > 0) {
            // a thread each: the common pool may have one (2 cores), and the server would wait for a client in its queue
            ExecutorService sides = Executors.newFixedThreadPool(2);
            try {
                CompletableFuture<ToolRun> s = CompletableFuture.supplyAsync(() -> ToolRun.of(server), sides);
                CompletableFuture<ToolRun> c = CompletableFuture.supplyAsync(() -> ToolRun.of(client), sides);
                CompletableFuture.allOf(s, c).get(withinSeconds, TimeUnit.SECONDS);
                return new Result(s.join(), c.join());
            } finally {
                sides.shutdown();
            }
        }
        ToolRun[] sides = ToolRun.serverAndClient(server, client, 180);
        return new Result(sides[0], sides[1]);
    }
}
