package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.jrdma.verbs.Context;
import org.junit.jupiter.api.Test;

/**
 * A device's contexts share one HCA; the last close stops it and unbinds its UDP socket. An
 * open of the same device racing with that close must wait for the stop rather than fail to
 * bind with EADDRINUSE — it did, when perf -R's own context closed just as its connection
 * manager opened the device. Each round lines the two up on a barrier; the old code failed
 * within the 200 rounds when this test was written.
 */
class ReopenWhileClosingTest {
    @Test
    void anOpenDuringTheLastCloseWaitsForTheSocketInsteadOfFailing() throws Exception {
        SoftDevice dev = FreshDevices.fresh("reopen");
        CyclicBarrier together = new CyclicBarrier(2);
        for (int round = 0; round < 200; round++) {
            Context first = dev.open();
            CompletableFuture<Void> closing = CompletableFuture.runAsync(() -> {
                await(together);
                first.close();
            });
            await(together);
            try (Context second = dev.open()) {
                assertThat(second.queryDevice()).as("round %d", round).isNotNull();
            }
            closing.get(10, TimeUnit.SECONDS);
        }
    }

    private static void await(CyclicBarrier b) {
        try {
            b.await(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
