package org.jrdma.bootstrap.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Exchanger;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.Exchange;
import org.jrdma.bootstrap.ExchangeListener;
import org.jrdma.bootstrap.RcConnection;
import org.jrdma.bootstrap.RcConnector;
import org.jrdma.bootstrap.RcOptions;
import org.jrdma.bootstrap.SoftDevices;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/**
 * RELIABILITY-SECURITY REL-27(d) (SoftRoCE/librxe-dev#14: rxe stopped answering after 1000
 * connections): connect → one message each way → close, over and over, each connection set up
 * by {@link RcConnector} on two soft devices through an in-process exchange (the two sides
 * swap {@link ConnInfo} through a {@link Exchanger}). Afterwards the heap after GC, the live
 * threads and the open file descriptors are back at their baseline. CI runs 1000 cycles; the
 * catalogue's 10,000 is {@code -Djrdma.cycles=10000} (docs/catalogue/dos-lifecycle.md).
 */
class ConnectCloseCyclesTest {
    private static final int CYCLES = Integer.getInteger("jrdma.cycles", 1000);
    private static final int WARMUP = 50;
    private static final Duration WAIT = Duration.ofSeconds(20);
    /** Heap after GC may wander by class loading and JIT-held objects; a leak of 1 KiB per cycle over 10k cycles is 10 MiB. */
    private static final long HEAP_SLACK = 4L << 20;

    @Test
    void rel27dConnectTransferCloseCyclesLeaveHeapThreadsAndFdsAtBaseline() throws Exception {
        ExecutorService peer = Executors.newSingleThreadExecutor(r -> Thread.ofPlatform().daemon().name("rel27d-peer").unstarted(r));
        try (Side a = new Side(device("rel27d_a")); Side b = new Side(device("rel27d_b"))) {
            for (int i = 0; i < WARMUP; i++) {
                cycle(a, b, peer, i);
            }
            Baseline base = Baseline.take();
            long t0 = System.nanoTime();
            for (int i = 0; i < CYCLES; i++) {
                cycle(a, b, peer, WARMUP + i);
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            await(() -> Baseline.liveThreads() <= base.threads && Baseline.openFds() <= base.fds, "threads and fds back at baseline");
            Baseline after = Baseline.take();
            System.out.printf("REL-27d: %d connect/transfer/close cycles in %.1f s (%.0f/s); heap after GC %d -> %d KiB"
                            + " (%+d B/cycle), threads %d -> %d, fds %d -> %d%n",
                    CYCLES, seconds, CYCLES / seconds, base.heap >> 10, after.heap >> 10, (after.heap - base.heap) / CYCLES,
                    base.threads, after.threads, base.fds, after.fds);
            assertThat(after.threads).isLessThanOrEqualTo(base.threads);
            assertThat(after.fds).isLessThanOrEqualTo(base.fds);
            assertThat(after.heap - base.heap).isLessThan(HEAP_SLACK);
        } finally {
            peer.shutdownNow();
            peer.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    /** Connect both sides concurrently, one SEND each way, check bytes, close both. */
    private static void cycle(Side a, Side b, ExecutorService peer, int n) throws Exception {
        Exchanger<ConnInfo> swap = new Exchanger<>();
        Future<RcConnection> bSide = peer.submit(() -> RcConnector.connect(b.pd, new InProcess(swap), b.options()));
        RcConnection ca = RcConnector.connect(a.pd, new InProcess(swap), a.options());
        RcConnection cb = bSide.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        try {
            a.buf.set(ValueLayout.JAVA_INT, 0, n);
            b.buf.set(ValueLayout.JAVA_INT, 0, ~n);
            a.send(ca);
            b.send(cb);
            a.await(2); // our SEND and the peer's
            b.await(2);
            assertThat(a.buf.get(ValueLayout.JAVA_INT, 64)).isEqualTo(~n);
            assertThat(b.buf.get(ValueLayout.JAVA_INT, 64)).isEqualTo(n);
        } finally {
            ca.close();
            cb.close();
        }
    }

    /** The two sides of one connection meet in an {@link Exchanger}: each hands over its info and gets the other's. */
    private record InProcess(Exchanger<ConnInfo> swap) implements Exchange {
        @Override
        public ConnInfo exchange(ConnInfo local, ExchangeListener listener) {
            try {
                return swap.exchange(local, WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                throw new IllegalStateException("in-process exchange failed", e);
            }
        }
    }

    /** One device's long-lived resources: a context, PD, CQ and 128 registered bytes (send from 0, receive at 64). */
    private static final class Side implements AutoCloseable {
        final Context ctx;
        final ProtectionDomain pd;
        final CompletionQueue cq;
        final Arena arena = Arena.ofShared();
        final MemorySegment buf = arena.allocate(128, 64);
        final MemoryRegion mr;
        final WorkCompletion[] wc = {new WorkCompletion(), new WorkCompletion()};

        Side(Device device) {
            ctx = device.open();
            pd = ctx.allocPd();
            cq = ctx.createCq(16, null);
            mr = pd.registerMemory(buf, AccessFlags.LOCAL_WRITE);
        }

        RcOptions options() {
            return RcOptions.defaults(cq).withCap(new QpCap(4, 4, 1, 1, 0))
                    .onInit(qp -> qp.postRecv(new RecvWorkRequest().wrId(2).sg(Sge.of(mr, 64, 64))));
        }

        void send(RcConnection c) {
            c.qp().postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED).sg(Sge.of(mr, 0, 64)));
        }

        void await(int n) {
            long end = System.nanoTime() + WAIT.toNanos();
            int got = 0;
            while (got < n) {
                int k = cq.poll(wc, n - got);
                for (int i = 0; i < k; i++) {
                    assertThat(wc[i].status).as("wr %d", wc[i].wrId).isEqualTo(WcStatus.SUCCESS);
                }
                got += k;
                if (System.nanoTime() > end) {
                    throw new AssertionError("timed out with " + got + " of " + n + " completions");
                }
                if (k == 0) {
                    Thread.onSpinWait();
                }
            }
        }

        @Override
        public void close() {
            mr.close();
            cq.close();
            pd.close();
            ctx.close();
            arena.close();
        }
    }

    private record Baseline(long heap, int threads, long fds) {
        static Baseline take() {
            return new Baseline(heapAfterGc(), liveThreads(), openFds());
        }

        static long heapAfterGc() {
            long best = Long.MAX_VALUE;
            for (int i = 0; i < 5; i++) {
                System.gc();
                best = Math.min(best, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
            }
            return best;
        }

        static int liveThreads() {
            return ManagementFactory.getThreadMXBean().getThreadCount();
        }

        static long openFds() {
            try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
                return s.count();
            } catch (IOException e) {
                return -1; // not Linux: not measured
            }
        }
    }

    private static void await(BooleanSupplier condition, String what) {
        long end = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                return; // the assertions below report the figures
            }
            Thread.onSpinWait();
        }
    }

    static Device device(String name) throws Exception {
        return SoftDevices.free(name);
    }
}
