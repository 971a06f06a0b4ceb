package org.jrdma.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jrdma.tools.FreeLoopback;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Two processes with no device flags, as perftest is run: the server's default loopback device
 * binds 127.0.0.1 (or the next free 127.0.0.x), the client's moves to another address.
 */
class PerfProcessesTest {
    @ParameterizedTest
    @CsvSource({"write_bw, -s 4096 -n 200", "send_lat, -n 100"})
    void serverAndClientProcesses(String test, String flags) throws Exception {
        String port = String.valueOf(FreeLoopback.tcpPort());
        // soft's default device, whose GID is checked below: in auto a peer on this host gets shm's
        List<String> args = new ArrayList<>(List.of("perf", test, "-p", port, "--check", "--provider", "soft"));
        args.addAll(List.of(flags.split(" ")));
        Process server = start(args);
        List<String> clientArgs = new ArrayList<>(args);
        clientArgs.add("127.0.0.1");
        Process client = start(clientArgs);
        try {
            assertThat(client.waitFor(180, TimeUnit.SECONDS)).as("client finished").isTrue();
            assertThat(server.waitFor(60, TimeUnit.SECONDS)).as("server finished").isTrue();
            String clientOut = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String serverOut = new String(server.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(client.exitValue()).as(clientOut + "\n=== server ===\n" + serverOut).isZero();
            assertThat(server.exitValue()).as(serverOut).isZero();
            if (test.endsWith("_bw")) {
                assertThat(clientOut).containsPattern("\n 4096 +200 +\\d");
                assertThat(serverOut).containsPattern("\n 4096 +200 +\\d").contains(PerfEndToEndTest.verifiedLine("write_bw", 200, 200));
            } else {
                assertThat(clientOut).containsPattern("\n 2 +100 +\\d");
                assertThat(serverOut).containsPattern("\n 2 +100 +\\d");
                assertThat(clientOut).contains(PerfEndToEndTest.verifiedLine("send_lat", 100, 100));
            }
            assertThat(serverOut).contains("GID: 00:00:00:00:00:00:00:00:00:00:255:255:127:00:00:");
        } finally {
            server.destroyForcibly();
            client.destroyForcibly();
        }
    }

    private static Process start(List<String> args) throws Exception {
        java.util.Map<String, String> env = new java.util.HashMap<>();
        env.put("JRDMA_SOFT_DEVICES", null); // "no flags": the default device set
        return org.jrdma.tools.JrdmaProcess.start(List.of(), env, args);
    }

    /**
     * perf -R's server listens on the wildcard address, as perftest, which for soft devices meant
     * opening — holding the UDP port of — every device of its process: a client on another
     * device of the same host then failed with "open_device …: UDP …:4791 is taken". With -d it
     * listens on that device's address only. And the client's process may list the server's
     * device too (the same JRDMA_SOFT_DEVICES on both sides): its connection manager opened every
     * device to learn their addresses, and failed on the server's the same way.
     */
    @ParameterizedTest(name = "the client lists the server''s device too: {0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void anRdmaCmServerGivenADeviceLeavesTheOthersToOtherProcesses(boolean clientListsBoth) throws Exception {
        String serverDevice = FreeLoopback.deviceSpec("cms");
        String clientDevice = FreeLoopback.deviceSpec("cmc");
        String port = String.valueOf(FreeLoopback.tcpPort());
        List<String> args = List.of("perf", "send_bw", "-R", "-n", "200", "--check", "-p", port, "--timeout-ms", "20000");
        List<String> serverArgs = new ArrayList<>(args);
        serverArgs.addAll(List.of("-d", "cms"));
        List<String> clientArgs = new ArrayList<>(args);
        clientArgs.addAll(List.of("-d", "cmc", serverDevice.substring(serverDevice.indexOf('=') + 1)));
        java.util.Map<String, String> serverEnv = new java.util.HashMap<>();
        serverEnv.put("JRDMA_SOFT_DEVICES", serverDevice + "," + clientDevice); // the server's process knows both
        Process server = org.jrdma.tools.JrdmaProcess.start(List.of(), serverEnv, serverArgs);
        Process client = org.jrdma.tools.JrdmaProcess.start(List.of(), java.util.Map.of("JRDMA_SOFT_DEVICES",
                clientListsBoth ? serverDevice + "," + clientDevice : clientDevice), clientArgs);
        try {
            assertThat(client.waitFor(60, TimeUnit.SECONDS)).as("client finished").isTrue();
            assertThat(server.waitFor(30, TimeUnit.SECONDS)).as("server finished").isTrue();
            String clientOut = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String serverOut = new String(server.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(client.exitValue()).as(clientOut + "\n=== server ===\n" + serverOut).isZero();
            assertThat(server.exitValue()).as(serverOut).isZero();
            assertThat(serverOut).contains(PerfEndToEndTest.verifiedLine("send_bw", 200, 200));
        } finally {
            server.destroyForcibly();
            client.destroyForcibly();
        }
    }
}
