package org.jrdma.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.jrdma.soft.SoftDeviceDiscovery;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code jrdma pingpong} and {@code jrdma devinfo} on a soft device bound to ::1 (issue 7 item 4):
 * the GID is ::1 itself, printed as such, sent in rc_pingpong's 32-hex-digit text, and the TCP
 * exchange runs over IPv6 too. Both ends share the one device, as in PingpongCommandTest. Also
 * what the tools say of an IPv6 peer: {@code [::1]:port}.
 */
class Ipv6PingpongCommandTest {
    private static final String DEVICE = "pp6";

    @BeforeEach
    void ownDevice() {
        System.setProperty(SoftDeviceDiscovery.PROPERTY, DEVICE + "=::1");
    }

    @AfterEach
    void forgetDevice() {
        System.clearProperty(SoftDeviceDiscovery.PROPERTY);
    }

    @ParameterizedTest
    @ValueSource(strings = {"rc", "uc", "ud"})
    void pingpongOverIpv6Gids(String transport) throws Exception {
        int port = FreeLoopback.tcpPort();
        List<String> common = new ArrayList<>(List.of("pingpong", "-d", DEVICE, "-p", String.valueOf(port),
                "--timeout-ms", "20000", "--transport", transport, "-n", "40", "-s", "1000", "-m", "1024", "-c"));
        List<String> client = new ArrayList<>(common);
        client.add("::1");
        for (ToolRun side : ToolRun.serverAndClient(common, client, 60)) {
            assertThat(side.code()).as(side.out() + side.err()).isZero();
            assertThat(side.out()).containsPattern("  local address:  LID 0x0000, QPN 0x[0-9a-f]{6}, PSN 0x[0-9a-f]{6}, GID ::1\\n")
                    .containsPattern("  remote address: LID 0x0000, QPN 0x[0-9a-f]{6}, PSN 0x[0-9a-f]{6}, GID ::1\\n")
                    .contains("40 iters in", "40 messages verified");
        }
    }

    @Test
    void devinfoShowsTheIpv6Gid() {
        ToolRun r = ToolRun.of(List.of("devinfo", "-d", DEVICE));
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("\t\t\tGID[  0]:\t\t::1, RoCE v2");
    }

    /**
     * perf -R and TCP clients with no server name it as {@code [::1]:port}; -R said
     * "0:0:0:0:0:0:0:1 port 21004", Java's text of the address.
     */
    @ParameterizedTest(name = "-R: {0}")
    @ValueSource(booleans = {true, false})
    void aPerfClientWithNoServerNamesTheIpv6AddressInBrackets(boolean rdmaCm) throws Exception {
        int port = FreeLoopback.tcpPort();
        List<String> args = new ArrayList<>(List.of("perf", "write_bw", "-d", DEVICE, "-p", String.valueOf(port), "--timeout-ms",
                "3000", "::1")); // long enough that the first refusal (with -R a CM REQ and its REJ) comes before it, under load too
        if (rdmaCm) {
            args.add("-R");
        }
        ToolRun r = ToolRun.of(args);
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.FAILURE);
        assertThat(r.err()).as(r.toString()).startsWith("jrdma perf: [::1]:" + port + (rdmaCm ? " rejected" : " refused"))
                .contains("error: " + (rdmaCm ? "no rdma_cm server listens on [::1]:" : "connect to [::1]:") + port + ": ")
                .doesNotContain("0:0:0:0");
    }
}
