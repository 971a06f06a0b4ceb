package org.jrdma.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The mesh example through a directory store: three ranks (threads), each reads every peer's greeting. */
class MeshTest {
    @TempDir
    Path dir;

    @Test
    void everyRankReadsWhatEachPeerWroteIntoItsSlot() throws Exception {
        ExampleDevice.address();
        List<CompletableFuture<String[]>> ranks = new ArrayList<>();
        // a thread each: the ranks wait for one another (the common pool may have one thread)
        ExecutorService threads = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().daemon().factory());
        for (int r = 0; r < 3; r++) {
            int rank = r;
            ranks.add(CompletableFuture.supplyAsync(() -> Mesh.run(dir.toUri(), "example", rank, 3), threads));
        }
        for (int r = 0; r < 3; r++) {
            String[] got = ranks.get(r).get(Roles.DEADLINE_SECONDS, TimeUnit.SECONDS);
            for (int from = 0; from < 3; from++) {
                assertThat(got[from]).isEqualTo(from == r ? "" : "hello from rank " + from + " to " + r);
            }
        }
    }
}
