package org.jrdma.tools.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.ToolRun;
import org.junit.jupiter.api.Test;

/**
 * {@code jrdma chaos}'s flags (issue 12's pass over every tool): a bad value is a usage error
 * (exit 2) naming the flag, before any device is opened or any row printed.
 */
class ChaosCommandTest {
    @Test
    void anUnknownCellIsRefusedNotSkipped() {
        ToolRun r = ToolRun.of("chaos", "--cell", "CH-99", "-n", "20");
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--cell [CH-99]: no such cell").contains("CH-01").contains("CH-09");
        assertThat(r.out()).doesNotContain("every cell as expected");
    }

    @Test
    void aBadMtuIsAUsageErrorNamingTheFlag() {
        ToolRun r = ToolRun.of("chaos", "-m", "100", "--cell", "CH-01");
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--mtu").contains("100 is not a path MTU");
    }

    @Test
    void aTimeoutOutsideTheFiveBitAttributeIsRefusedBeforeTheTable() {
        for (String t : new String[] {"-1", "32"}) {
            ToolRun r = ToolRun.of("chaos", "--timeout=" + t, "--cell", "CH-01");
            assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
            assertThat(r.err()).contains("--timeout must be 0..31").contains("not " + t);
            assertThat(r.out()).doesNotContain("| cell |");
        }
    }
}
