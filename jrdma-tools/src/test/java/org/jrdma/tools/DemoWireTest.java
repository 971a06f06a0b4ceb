package org.jrdma.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jrdma.soft.SoftDeviceDiscovery;
import org.jrdma.tools.demo.Demo;
import org.jrdma.tools.demo.DemoResult;
import org.jrdma.tools.rc.EndpointConfig;
import org.jrdma.verbs.Mtu;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the demo puts on the wire, read back by tshark: InfiniBand BTH with RC SEND
 * FIRST/MIDDLE/LAST opcodes, consecutive PSNs per QP, and an ACK for each message's last PSN.
 * Skipped where tshark is not installed (.ci/run installs it).
 */
class DemoWireTest {
    @TempDir
    Path dir;

    @AfterEach
    void forgetDevice() {
        System.clearProperty(SoftDeviceDiscovery.PROPERTY);
    }

    @Test
    void tsharkDecodesTheDemoAsRcSendsWithConsecutivePsnsAndAcks() throws Exception {
        assumeTrue(tsharkAvailable(), "tshark not installed");
        String spec = FreeLoopback.deviceSpec("wire");
        System.setProperty(SoftDeviceDiscovery.PROPERTY, spec);
        Path pcap = dir.resolve("demo.pcap");
        int iters = 4;
        EndpointConfig config = new EndpointConfig(spec.substring(0, spec.indexOf('=')), "tcp", 0, 2500, iters, false,
                Mtu.MTU_1024, Duration.ofSeconds(20));
        DemoResult r = new Demo(config, p -> { }, pcap).run();

        Process t = new ProcessBuilder("tshark", "-r", pcap.toString(), "-T", "fields", "-e", "infiniband.bth.opcode",
                "-e", "infiniband.bth.destqp", "-e", "infiniband.bth.psn", "-e", "infiniband.aeth.msn").start();
        List<String> lines = new String(t.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip().lines().toList();
        assertThat(t.waitFor(60, TimeUnit.SECONDS)).isTrue();

        // 2500 B at MTU 1024 = FIRST, MIDDLE, LAST per message; 2 × iters messages; one ACK each.
        assertThat(lines).hasSize(2 * iters * 4);
        Map<String, List<Integer>> psnsByQp = new HashMap<>();
        List<String> opcodes = new ArrayList<>();
        for (String line : lines) {
            String[] f = line.split("\t", -1);
            opcodes.add(f[0]);
            if (!f[0].equals("17")) {
                psnsByQp.computeIfAbsent(f[1], k -> new ArrayList<>()).add(Integer.parseInt(f[2]));
            }
        }
        assertThat(opcodes.stream().filter("0"::equals)).hasSize(2 * iters);
        assertThat(opcodes.stream().filter("1"::equals)).hasSize(2 * iters);
        assertThat(opcodes.stream().filter("2"::equals)).hasSize(2 * iters);
        assertThat(opcodes.stream().filter("17"::equals)).hasSize(2 * iters);
        String serverQp = String.format("0x%06x", r.serverLocal().qpn());
        String clientQp = String.format("0x%06x", r.clientLocal().qpn());
        assertThat(psnsByQp).containsOnlyKeys(serverQp, clientQp);
        // Packets to the server carry the PSNs the client advertised, consecutive from there.
        assertConsecutiveFrom(psnsByQp.get(serverQp), r.clientLocal().psn(), 3 * iters);
        assertConsecutiveFrom(psnsByQp.get(clientQp), r.serverLocal().psn(), 3 * iters);
    }

    private static void assertConsecutiveFrom(List<Integer> psns, int first, int count) {
        assertThat(psns).hasSize(count);
        for (int i = 0; i < count; i++) {
            assertThat(psns.get(i)).as("PSN #%d", i).isEqualTo((first + i) & 0xFFFFFF);
        }
    }

    static boolean tsharkAvailable() {
        try {
            Process p = new ProcessBuilder("tshark", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (Exception e) {
            return false;
        }
    }
}
