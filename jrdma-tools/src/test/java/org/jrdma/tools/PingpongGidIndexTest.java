package org.jrdma.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code jrdma pingpong -g N} reaches the device: a native device (rdma_rxe) has its RoCEv2 IPv4
 * GID at index 1, as {@code ibv_rc_pingpong -g 1} uses it (issue 13, item 6: pingpong refused
 * every index but 0, so the native provider could not run it against rdma-core). On a soft
 * device, with its one GID, index 1 is the device's error (query_gid), not a usage error.
 */
class PingpongGidIndexTest {
    @RegisterExtension
    final OwnDevices own = OwnDevices.perTest("gidx");

    @Test
    void theGidIndexIsTheDevicesToJudge() throws Exception {
        String port = String.valueOf(FreeLoopback.tcpPort());
        List<String> common = List.of("pingpong", "-d", own.name(), "-p", port, "-g", "1", "-n", "5", "--timeout-ms", "20000");
        ToolRun server = ToolRun.serverAndClient(common,
                java.util.stream.Stream.concat(common.stream(), java.util.stream.Stream.of("127.0.0.1")).toList(), 60)[0];
        assertThat(server.code()).as(server.toString()).isEqualTo(ExitCodes.FAILURE);
        assertThat(server.err()).contains("query_gid: index 1 outside the GID table").doesNotContain("soft devices have one GID");
    }

    @Test
    void gidIndexZeroStillRunsAndANegativeOneIsAUsageError() throws Exception {
        String port = String.valueOf(FreeLoopback.tcpPort());
        List<String> common = List.of("pingpong", "-d", own.name(), "-p", port, "-g", "0", "-n", "5", "--timeout-ms", "20000");
        ToolRun[] r = ToolRun.serverAndClient(common,
                java.util.stream.Stream.concat(common.stream(), java.util.stream.Stream.of("127.0.0.1")).toList(), 60);
        assertThat(r[0].code()).as(r[0].toString()).isZero();
        assertThat(r[1].code()).as(r[1].toString()).isZero();
        ToolRun bad = ToolRun.of("pingpong", "-d", own.name(), "-g", "-1", "127.0.0.1");
        assertThat(bad.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(bad.err()).contains("--gid-idx must be 0 or more, not -1");
    }
}
