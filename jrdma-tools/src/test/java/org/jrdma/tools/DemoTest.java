package org.jrdma.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.soft.SoftDeviceDiscovery;
import org.jrdma.tools.demo.Demo;
import org.jrdma.tools.demo.DemoResult;
import org.jrdma.tools.demo.Phase;
import org.jrdma.tools.rc.EndpointConfig;
import org.jrdma.verbs.Mtu;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code jrdma demo} end to end, on a soft device of its own. */
class DemoTest {
    private String device;

    @BeforeEach
    void ownDevice() throws Exception {
        String spec = FreeLoopback.deviceSpec("demo");
        device = spec.substring(0, spec.indexOf('='));
        System.setProperty(SoftDeviceDiscovery.PROPERTY, spec);
    }

    @AfterEach
    void forgetDevice() {
        System.clearProperty(SoftDeviceDiscovery.PROPERTY);
    }

    private DemoResult run(String bootstrap, int size, int iters, boolean events, List<Phase> printed) throws Exception {
        EndpointConfig config = new EndpointConfig(device, bootstrap, 0, size, iters, events, Mtu.MTU_1024, Duration.ofSeconds(20));
        return new Demo(config, printed::add).run();
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "file", "static"})
    void everyBootstrapRunsThePhasesInOrderAndVerifiesTheData(String bootstrap) throws Exception {
        List<Phase> printed = new ArrayList<>();
        DemoResult r = run(bootstrap, 3000, 40, false, printed);

        assertThat(printed).extracting(Phase::number).containsExactly(1, 2, 3, 4, 5);
        assertThat(printed).allSatisfy(p -> assertThat(p.nanos()).isNotNegative());
        assertThat(r.data().verifiedMessages()).isEqualTo(80);
        assertThat(r.data().bytes()).isEqualTo(2L * 3000 * 40);
        // Each side got exactly what the other sent.
        assertThat(r.serverRemote()).isEqualTo(r.clientLocal());
        assertThat(r.clientRemote()).isEqualTo(r.serverLocal());
        assertThat(r.serverLocal().qpn()).isNotEqualTo(r.clientLocal().qpn());
        assertThat(r.counters().get("sent_packets")).isPositive();
    }

    /** The seed's rule: every out-of-band socket is closed before the first RDMA packet leaves. */
    @Test
    void tcpSocketsAreClosedBeforeTheFirstRdmaPacketLeaves() throws Exception {
        DemoResult r = run("tcp", 64, 10, false, new ArrayList<>());

        assertThat(r.packetsSeen()).as("a soft device sees its own packets").isTrue();
        assertThat(r.firstRdmaPacketNanos()).as("the device sent RDMA packets").isPositive();
        assertThat(r.serverChannelClosedNanos()).isPositive().isLessThan(r.firstRdmaPacketNanos());
        assertThat(r.clientChannelClosedNanos()).isPositive().isLessThan(r.firstRdmaPacketNanos());
        assertThat(r.channelClosedBeforeFirstPacket()).isTrue();
    }

    @Test
    void completionEventsModeWorks() throws Exception {
        DemoResult r = run("tcp", 5000, 20, true, new ArrayList<>());
        assertThat(r.data().verifiedMessages()).isEqualTo(40);
    }

    @Test
    void zeroByteAndMultiPacketMessages() throws Exception {
        assertThat(run("tcp", 0, 5, false, new ArrayList<>()).data().verifiedMessages()).isEqualTo(10);
        assertThat(run("tcp", 1 << 20, 2, false, new ArrayList<>()).data().verifiedMessages()).isEqualTo(4);
    }

    @Test
    void theCommandPrintsEveryPhaseAndExitsZero() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"demo", "-d", device, "-n", "30", "-s", "2048"}, new PrintWriter(out, true),
                new PrintWriter(err, true));

        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString())
                .contains("[1] TCP connect", "[2] exchange", "[3] TCP closed", "[4] QP RESET→INIT→RTR→RTS", "[5] data by RDMA SEND/RECV")
                .contains("  local address:  LID 0x0000, QPN 0x")
                .contains("122880 bytes in").contains("30 iters in").contains("usec/iter")
                .contains("60 messages verified byte for byte; TCP sockets closed before the first RDMA packet: yes");
    }

    @Test
    void jsonOutputIsOneObject() throws Exception {
        StringWriter out = new StringWriter();
        int code = Main.run(new String[] {"demo", "-d", device, "-n", "10", "--json"}, new PrintWriter(out, true),
                new PrintWriter(new StringWriter(), true));

        assertThat(code).isZero();
        String json = out.toString().strip();
        assertThat(json).startsWith("{").endsWith("}").doesNotContain("\n")
                .contains("\"channelClosedBeforeFirstRdmaPacket\":true", "\"verifiedMessages\":20", "\"phases\":[{\"number\":1");
    }

    @Test
    void badOptionsAreUsageErrors() {
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"demo", "--bootstrap", "carrier-pigeon"}, new PrintWriter(new StringWriter()),
                new PrintWriter(err, true));
        assertThat(code).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains("--bootstrap must be tcp, file, static or cm");

        err = new StringWriter();
        code = Main.run(new String[] {"demo", "-m", "1000"}, new PrintWriter(new StringWriter()), new PrintWriter(err, true));
        assertThat(code).isEqualTo(ExitCodes.USAGE); // a usage error like the others (it was exit 1, "malformed mtu")
        assertThat(err.toString()).contains("--mtu 1000 is not a path MTU: must be 256, 512, 1024, 2048 or 4096");
    }

    @Test
    void anUnknownDeviceIsNamedInTheError() {
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"demo", "-d", "mlx5_9"}, new PrintWriter(new StringWriter()), new PrintWriter(err, true));
        assertThat(code).isEqualTo(ExitCodes.FAILURE);
        assertThat(err.toString()).contains("no RDMA device named 'mlx5_9'").contains(device);
    }
}
