package org.jrdma.tools.mesh;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jrdma.tools.FreeLoopback;
import org.jrdma.tools.JrdmaProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jrdma mesh} through a directory store as a user runs it on one host: one process per
 * rank, each with a soft device on its own 127.78.x.y, meeting only through the directory.
 */
class MeshFileStoreProcessesTest {
    private static final long WAIT_SECONDS = 120;

    @TempDir
    Path dir;

    private final List<Process> processes = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        processes.forEach(Process::destroyForcibly);
    }

    @Test
    void threeProcessesProveEveryPairAndRankZeroPrintsTheMatrix() throws Exception {
        String store = dir.toUri().toString();
        List<CompletableFuture<String>> outputs = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            Map<String, String> env = new HashMap<>();
            env.put("JRDMA_SOFT_DEVICES", FreeLoopback.deviceSpec("m"));
            env.put("JRDMA_STATS_DIR", "off");
            Process p = JrdmaProcess.start(List.of("-Dslf4j.internal.verbosity=ERROR"), env, List.of("mesh", "--store", store,
                    "--job", "three", "--rank", Integer.toString(r), "--size", "3", "-s", "256", "-d", "m"));
            processes.add(p);
            // read as it comes, so that a full pipe never holds a rank up
            outputs.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }));
        }
        for (int r = 0; r < 3; r++) {
            Process p = processes.get(r);
            assertThat(p.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)).as("rank %d ended", r).isTrue();
            String out = outputs.get(r).get(WAIT_SECONDS, TimeUnit.SECONDS);
            assertThat(p.exitValue()).as(out).isZero();
            assertThat(out).contains("rank " + r + " of 3, job three, epoch 1, store " + store)
                    .contains("verified  2 of 2 peers' WRITEs of 256 bytes");
        }
        assertThat(outputs.get(0).get()).contains("mesh: ok: 6 of 6 ordered pairs verified").contains("      1  +-+");
    }
}
