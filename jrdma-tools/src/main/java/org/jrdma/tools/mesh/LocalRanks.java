package org.jrdma.tools.mesh;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.jrdma.bootstrap.rendezvous.RendezvousStore;
import org.jrdma.bootstrap.rendezvous.RendezvousStores;

/**
 * {@code jrdma mesh --ranks 0-63}: several ranks of a job in this one process, each on a thread
 * of its own with its own device context, QPs and rendezvous, through one connection to the
 * store. For a job on one host without one process per rank, and for measuring how set-up grows
 * with the job: the summary gives the slowest rank's set-up, the store traffic per rank and the
 * heap the ranks took.
 */
final class LocalRanks {
    private LocalRanks() {
    }

    /**
     * The ranks' results by rank, or the first failure. A rank that fails makes its peers fail
     * too (they name it), so the error of the lowest failed rank is thrown with the rest
     * suppressed.
     */
    static List<MeshResult> run(MeshConfig base, int[] ranks, Consumer<String> notices, long[] heapDelta) throws Exception {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        System.gc();
        long before = memory.getHeapMemoryUsage().getUsed();
        CountDownLatch proven = new CountDownLatch(ranks.length);
        Runnable lastMeasures = () -> {
            proven.countDown();
            if (proven.getCount() == 0) {
                // every rank here is connected and proven, its QPs and regions open: what they hold
                System.gc();
                heapDelta[0] = memory.getHeapMemoryUsage().getUsed() - before;
            }
        };
        ExecutorService threads = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().name("mesh-rank-", 0).factory());
        List<Future<MeshResult>> futures = new ArrayList<>();
        try (RendezvousStore store = RendezvousStores.open(base.store(), base.options())) {
            String[] devices = base.device() == null ? new String[] {null} : base.device().split(",");
            for (int i = 0; i < ranks.length; i++) {
                int r = ranks[i];
                MeshConfig one = base.asRank(r).onDevice(devices[i % devices.length]);
                futures.add(threads.submit(() -> new MeshRun(one, notices, store, lastMeasures).run()));
            }
            List<MeshResult> results = new ArrayList<>();
            Exception first = null;
            for (Future<MeshResult> f : futures) {
                try {
                    results.add(f.get());
                } catch (ExecutionException e) {
                    Exception cause = e.getCause() instanceof Exception c ? c : e;
                    if (first == null) {
                        first = cause;
                    } else {
                        first.addSuppressed(cause);
                    }
                }
            }
            if (first != null) {
                throw first;
            }
            return results;
        } finally {
            threads.shutdownNow();
        }
    }

    /** The lines for several ranks: one per rank, rank 0's matrix (when it is here and small), a summary. */
    static String text(MeshConfig base, int[] ranks, List<MeshResult> results, long heapDelta) {
        StringBuilder sb = new StringBuilder();
        long[] setups = new long[results.size()];
        long requests = 0;
        long sent = 0;
        long received = 0;
        boolean all = true;
        for (int i = 0; i < results.size(); i++) {
            MeshResult r = results.get(i);
            setups[i] = setup(r);
            requests += r.traffic().requests();
            sent += r.traffic().bytesSent();
            received += r.traffic().bytesReceived();
            all &= r.verified();
            int ok = 0;
            for (boolean b : r.row()) {
                ok += b ? 1 : 0;
            }
            sb.append(String.format(Locale.ROOT, "rank %d: epoch %d, set-up %.1f ms, %d of %d peers verified, store %d requests%n",
                    ranks[i], r.epoch(), setups[i] / 1e6, ok - 1, base.size() - 1, r.traffic().requests()));
            if (r.matrix() != null && base.size() <= 64) {
                sb.append(MeshReport.matrix(base, r)).append('\n');
            }
        }
        Arrays.sort(setups);
        int n = results.size();
        sb.append(String.format(Locale.ROOT,
                "%d ranks of %d in this process: set-up (join to barrier \"connected\") median %.1f ms, slowest %.1f ms;"
                        + " store per rank %.1f requests, %.0f bytes sent, %.0f received%n",
                n, base.size(), setups[n / 2] / 1e6, setups[n - 1] / 1e6, (double) requests / n, (double) sent / n,
                (double) received / n));
        sb.append(String.format(Locale.ROOT, "heap with every rank here connected: %+.1f MiB (%.1f KiB per rank; regions and"
                + " soft QP state off heap not counted)%n", heapDelta / 1048576.0, heapDelta / 1024.0 / n));
        sb.append("mesh: ").append(all ? "ok" : "FAILED");
        return sb.toString();
    }

    /** join through barrier "connected": what a program waits for before it moves data. */
    static long setup(MeshResult r) {
        long t = 0;
        for (String phase : List.of("join", "qps", "publish", "exchange", "connect", "barrier")) {
            t += r.phases().getOrDefault(phase, 0L);
        }
        return t;
    }
}
