package org.jrdma.tools.mesh;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.OwnDevices;
import org.jrdma.tools.ToolRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code jrdma mesh} end to end through a directory store: several ranks in this JVM on one soft device. */
class MeshFileStoreTest {
    @RegisterExtension
    final OwnDevices device = OwnDevices.perTest("mesh");

    @TempDir
    Path dir;

    @Test
    void fourRanksProveEveryPairAndRankZeroPrintsTheMatrix() {
        ToolRun r = ToolRun.of("mesh", "--store", dir.toUri().toString(), "--job", "four", "--size", "4", "--ranks", "0-3",
                "-s", "256", "-d", device.name());
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.OK);
        assertThat(r.out()).contains("mesh: ok: 12 of 12 ordered pairs verified").contains("      2  ++-+")
                .contains("rank 3: epoch 1, ").contains("4 ranks of 4 in this process");
        // the same job id again is a new run
        ToolRun again = ToolRun.of("mesh", "--store", dir.toUri().toString(), "--job", "four", "--size", "4", "--ranks", "0-3",
                "-s", "256", "-d", device.name(), "--json");
        assertThat(again.code()).as(again.toString()).isEqualTo(ExitCodes.OK);
        assertThat(again.out().lines().filter(l -> l.startsWith("{"))).hasSize(4)
                .allSatisfy(l -> assertThat(l).contains("\"epoch\":2").contains("\"verified\":true"));
        assertThat(again.out()).contains("\"matrix\":[\"-+++\",\"+-++\",\"++-+\",\"+++-\"]");
    }

    @Test
    void aRankThatNeverComesIsNamedAndEveryRankFails() {
        ToolRun r = ToolRun.of("mesh", "--store", dir.toUri().toString(), "--job", "short", "--size", "3", "--ranks", "0-1",
                "--timeout-ms", "1500", "-d", device.name());
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.FAILURE);
        assertThat(r.err()).contains("jrdma mesh: error: job short epoch 1: rank").contains("2").contains("deadline");
    }

    @Test
    void ranksAndRankAreExclusive() {
        ToolRun r = ToolRun.of("mesh", "--store", dir.toUri().toString(), "--job", "j", "--size", "3", "--ranks", "0-5");
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("'0-5' is not a rank or range within 0-2");
        r = ToolRun.of("mesh", "--store", dir.toUri().toString(), "--job", "j", "--size", "3", "--ranks", "0", "--rank", "1");
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("give --rank I (one rank) or --ranks LIST");
    }
}
