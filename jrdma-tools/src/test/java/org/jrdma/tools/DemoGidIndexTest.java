package org.jrdma.tools;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code jrdma demo -g N} reaches the device, as pingpong's does (the two share RcFlags): on a
 * NIC the demo needs the RoCEv2 GID of the right family (rdma_rxe: index 1 for IPv4), where
 * index 0 is the netdev's IPv6 link-local address. On a soft device, with its one GID, index 1
 * is the device's error; a negative index is a usage error before anything is opened.
 */
class DemoGidIndexTest {
    @RegisterExtension
    final OwnDevices own = OwnDevices.perTest("dgidx");

    @Test
    void indexZeroRunsIndexOneIsTheDevicesError() {
        ToolRun ok = ToolRun.of("demo", "-d", own.name(), "-g", "0", "-n", "5");
        assertThat(ok.code()).as(ok.toString()).isZero();
        assertThat(ok.out()).contains("10 messages verified byte for byte");
        ToolRun one = ToolRun.of("demo", "-d", own.name(), "-g", "1", "-n", "5");
        assertThat(one.code()).as(one.toString()).isEqualTo(ExitCodes.FAILURE);
        assertThat(one.err()).contains("query_gid: index 1 outside the GID table");
    }

    @Test
    void aNegativeIndexIsAUsageError() {
        ToolRun bad = ToolRun.of("demo", "-d", own.name(), "-g", "-1");
        assertThat(bad.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(bad.err()).contains("--gid-idx must be 0 or more, not -1");
    }
}
