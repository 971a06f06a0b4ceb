package org.jrdma.tools.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 10: every {@code jrdma chaos} run left a {@code .lock} and a {@code .retired}
 * file per device in the shared stats directory — two fresh devices per cell, each named after
 * its fresh 127.66.x.y address, so the directory grew with every run. Chaos devices can be named
 * by no other process, so their counters stay private, and a run leaves the directory as it was.
 */
class ChaosStatsTest {
    private static final String STATS_PROPERTY = "jrdma.stats.dir";

    @Test
    void aChaosRunLeavesNothingInTheStatsDirectory(@TempDir Path stats) throws IOException {
        String before = System.getProperty(STATS_PROPERTY);
        System.setProperty(STATS_PROPERTY, stats.toString());
        try {
            List<ChaosCell> cells = ChaosCell.standard().subList(0, 2);
            List<CellResult> results = FaultMatrix.run(ChaosConfig.ciSized(12L), cells, r -> { });
            assertThat(results).hasSize(2).allMatch(CellResult::passed);
            assertThat(results.getFirst().counter("sent_packets")).as("the cells still count").isPositive();
        } finally {
            if (before == null) {
                System.clearProperty(STATS_PROPERTY);
            } else {
                System.setProperty(STATS_PROPERTY, before);
            }
        }
        try (var files = Files.list(stats)) {
            assertThat(files.map(p -> p.getFileName().toString())).isEmpty();
        }
    }
}
