package org.jrdma.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.jrdma.soft.SoftDeviceDiscovery;
import org.jrdma.tools.demo.Demo;
import org.jrdma.tools.demo.DemoResult;
import org.jrdma.tools.rc.EndpointConfig;
import org.jrdma.verbs.Mtu;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code jrdma devices} and {@code jrdma devinfo}, in ibv_devices' and ibv_devinfo's layout. */
class DevinfoCommandTest {
    private String device;
    private String address;

    @BeforeEach
    void ownDevice() throws Exception {
        String spec = FreeLoopback.deviceSpec("info");
        device = spec.substring(0, spec.indexOf('='));
        address = spec.substring(spec.indexOf('=') + 1);
        System.setProperty(SoftDeviceDiscovery.PROPERTY, spec);
    }

    @AfterEach
    void forgetDevice() {
        System.clearProperty(SoftDeviceDiscovery.PROPERTY);
    }

    @Test
    void devicesListsNameGuidAndProvider() {
        ToolRun r = ToolRun.of("devices");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("    device", "node GUID", "------").containsPattern(device + "\\s+[0-9a-f]{16}\\s+soft: ");
    }

    @Test
    void devinfoShowsThePortStateMtuAndGidTable() {
        ToolRun r = ToolRun.of("devinfo", "-d", device);
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("hca_id:\t" + device, "\ttransport:\t\t\tInfiniBand (0)", "\t\tport:\t1",
                "\t\t\tstate:\t\t\tPORT_ACTIVE (4)", "\t\t\tlink_layer:\t\tEthernet",
                "\t\t\tGID[  0]:\t\t::ffff:" + address + ", RoCE v2");
        assertThat(r.out()).containsPattern("active_mtu:\\t\\t(256|512|1024|2048|4096) \\([1-5]\\)")
                .containsPattern("node_guid:\\t\\t\\t[0-9a-f]{4}:[0-9a-f]{4}:[0-9a-f]{4}:[0-9a-f]{4}")
                .doesNotContain("max_qp:", "counters");
    }

    @Test
    void aSoftDeviceSaysWhichDatagramPathItTakesAndWhy() {
        ToolRun r = ToolRun.of("devinfo", "-d", device);
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).containsPattern("\\tdatagrams:\\t\\t\\t(nio|native) \\(jrdma\\.soft\\.datagrams=(nio|native|auto): .+\\)");
    }

    @Test
    void portOneIsTheOnlyPortAndAnotherIsRefused() {
        assertThat(ToolRun.of("devinfo", "-d", device, "-i", "1").out()).contains("\t\tport:\t1");
        ToolRun bad = ToolRun.of("devinfo", "-d", device, "-i", "2");
        assertThat(bad.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(bad.err()).contains("port 2 does not exist on " + device);
    }

    @Test
    void listPrintsTheNamesOnly() {
        ToolRun r = ToolRun.of("devinfo", "-l");
        assertThat(r.out()).containsPattern("\\d+ HCAs? found:").contains("\t" + device).doesNotContain("hca_id");
    }

    @Test
    void verboseAddsTheLimitsAndTheCountersOfTheTrafficSoFar() throws Exception {
        EndpointConfig config = new EndpointConfig(device, "tcp", 0, 2048, 50, false, Mtu.MTU_1024, Duration.ofSeconds(20));
        DemoResult demo = new Demo(config, p -> { }).run();
        long sent = demo.counters().get("sent_packets");
        assertThat(sent).isPositive();

        ToolRun r = ToolRun.of("devinfo", "-d", device, "-v");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("max_qp:", "max_qp_rd_atom:", "max_inline_data:", "counters (all processes on this host):")
                .contains("retransmitted_packets:", "seq_naks_rcvd:", "rnr_naks_rcvd:", "duplicate_requests:", "drop_bad_icrc:")
                .doesNotContain("drop_none");
        // the demo has closed its device: its packets were retired into the host total, not lost
        assertThat(counter(r.out(), "sent_packets")).isGreaterThanOrEqualTo(sent);
        assertThat(counter(r.out(), "rcvd_packets")).isPositive();
    }

    /**
     * A soft device lives in the process that opens it and binds its address there: devinfo in
     * a third terminal failed with EADDRINUSE ("choose another address") while a pingpong
     * served on the device. ibv_devinfo shows a NIC whatever else uses it; so does devinfo now,
     * with the counters of the process that has it.
     */
    @Test
    void devinfoShowsADeviceThatAnotherProcessHasOpen() throws Exception {
        java.nio.file.Path stats = java.nio.file.Path.of(System.getProperty("jrdma.stats.dir"));
        Process server = JrdmaProcess.start(java.util.List.of(),
                java.util.Map.of("JRDMA_SOFT_DEVICES", device + "=" + address, "JRDMA_STATS_DIR", stats.toString()),
                java.util.List.of("pingpong", "-d", device, "-p", Integer.toString(FreeLoopback.tcpPort())));
        try {
            java.nio.file.Path serversFile = stats.resolve(device + "." + server.pid() + ".cnt");
            org.jrdma.testkit.Await.until(() -> java.nio.file.Files.exists(serversFile) || !server.isAlive(),
                    Duration.ofSeconds(60), "the pingpong server to open " + device);
            assertThat(server.isAlive()).as("the server runs").isTrue();

            ToolRun r = ToolRun.of("devinfo", "-d", device, "-v");
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(r.out()).contains("hca_id:\t" + device, "\t\t\tstate:\t\t\tPORT_ACTIVE (4)",
                    "\t\t\tGID[  0]:\t\t::ffff:" + address + ", RoCE v2", "max_qp:", "counters (all processes on this host):");
            assertThat(counter(r.out(), "sent_packets")).isNotNegative();
        } finally {
            server.destroyForcibly().waitFor();
        }
    }

    static long counter(String out, String name) {
        return out.lines().map(String::strip).filter(l -> l.startsWith(name + ":"))
                .map(l -> Long.parseLong(l.substring(name.length() + 1).strip())).findFirst().orElseThrow();
    }
}
