package org.jrdma.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.OwnDevices;
import org.jrdma.tools.ToolRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code -s} as perftest's parser reads it: strtol base 0, then K or M. */
class PerftestSizeTest {
    @RegisterExtension
    static final OwnDevices DEVICE = new OwnDevices("size");

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource({"64K, 65536", "1M, 1048576", "8M, 8388608", "4096, 4096", "0x1000, 4096", "0x10K, 16384", "010, 8", "0, 0",
            "2, 2", "+5, 5"})
    void acceptsWhatPerftestAccepts(String text, long bytes) {
        assertThat(PerftestSize.parse(text)).isEqualTo(bytes);
    }

    /** perftest's strtol would take a prefix of these ("64k" is 64 to it); jrdma refuses them whole. */
    @ParameterizedTest
    @ValueSource(strings = {"64k", "1G", "64KB", "K", "", "0x", "12abc", "1.5K", "08", " 64"})
    void refusesTheRest(String text) {
        assertThatThrownBy(() -> PerftestSize.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--size");
    }

    @Test
    void aRefusedSizeIsAUsageError() {
        ToolRun r = ToolRun.of("perf", "write_bw", "-s", "64k", "-d", DEVICE.name());
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--size '64k' is not a number of bytes", "K (1024) or M (1048576)");
        ToolRun big = ToolRun.of("perf", "write_bw", "-s", "16M", "-d", DEVICE.name());
        assertThat(big.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(big.err()).contains("--size must be 1..8388608 (max_msg_sz), not 16M");
    }

    @Test
    void aSuffixedSizeRunsThatSize() throws Exception {
        PerfPair.Result r = PerfPair.run(DEVICE.name(), "write_bw", "-n", "20", "-s", "4K");
        assertThat(r.client().code()).as(r.toString()).isZero();
        assertThat(r.client().out()).containsPattern("\n 4096 +20 ");
    }
}
