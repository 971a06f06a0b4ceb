package org.jrdma.ibv;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import org.jrdma.ibv.conformance.NativeFixture;
import org.jrdma.testkit.Loopback;
import org.jrdma.testkit.Loopback.Endpoint;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * DESIGN "hot path without allocation", on a real device: post_recv, post_send and poll_cq go
 * through preallocated native WRs, SGEs and WCs, so a warm round allocates nothing (the soft
 * provider's HotPathAllocationTest, here with the kernel doing the transport). Skipped without a
 * device.
 */
class NativeHotPathAllocationTest {
    enum Op { SEND, SEND_INLINE, WRITE, READ, FETCH_ADD }

    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ
            | AccessFlags.REMOTE_ATOMIC;

    @ParameterizedTest
    @EnumSource(Op.class)
    void warmRoundsAllocateNothing(Op op) {
        NativeFixture fx = NativeFixture.get();
        try (Context ctx = fx.openContext();
                Loopback lb = Loopback.open(ctx, fx.port(), fx.gidIndex(), Loopback.Options.defaults()
                        .withMrAccess(ACCESS).withQpAccess(ACCESS).withCap(new QpCap(16, 16, 1, 1, 64)))) {
            Rounds r = new Rounds(lb.a(), lb.b(), op);
            for (int i = 0; i < 2_000; i++) {
                r.run();
            }
            com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            long before = mx.getCurrentThreadAllocatedBytes();
            int rounds = 5_000;
            for (int i = 0; i < rounds; i++) {
                r.run();
            }
            long perRound = (mx.getCurrentThreadAllocatedBytes() - before) / rounds;
            assertThat(perRound).as("bytes allocated per " + op + " round on " + ctx.device().name()).isLessThan(16);
        }
    }

    /** Post lists (issue 15): four receives and four SENDs, each as one list, allocate nothing either. */
    @org.junit.jupiter.api.Test
    void warmListRoundsAllocateNothing() {
        NativeFixture fx = NativeFixture.get();
        try (Context ctx = fx.openContext();
                Loopback lb = Loopback.open(ctx, fx.port(), fx.gidIndex(), Loopback.Options.defaults()
                        .withMrAccess(ACCESS).withQpAccess(ACCESS).withCap(new QpCap(16, 16, 1, 1, 64)))) {
            Endpoint a = lb.a();
            Endpoint b = lb.b();
            int n = 4;
            RecvWorkRequest[] recvs = new RecvWorkRequest[n];
            SendWorkRequest[] sends = new SendWorkRequest[n];
            for (int i = n - 1; i >= 0; i--) {
                recvs[i] = new RecvWorkRequest().wrId(10 + i).sg(new Sge(b.recvMr.addr() + 1024L * i, 1024, b.recvMr.lkey()))
                        .next(i + 1 < n ? recvs[i + 1] : null);
                sends[i] = new SendWorkRequest().wrId(20 + i).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED)
                        .sg(new Sge(a.sendMr.addr() + 1024L * i, 1000, a.sendMr.lkey())).next(i + 1 < n ? sends[i + 1] : null);
            }
            WorkCompletion[] wc = {new WorkCompletion()};
            Runnable round = () -> {
                b.qp.postRecv(recvs[0]);
                a.qp.postSend(sends[0]);
                for (int i = 0; i < n; i++) {
                    awaitOne(a.sendCq, wc, 20 + i);
                }
                for (int i = 0; i < n; i++) {
                    awaitOne(b.recvCq, wc, 10 + i);
                }
            };
            for (int i = 0; i < 2_000; i++) {
                round.run();
            }
            com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            long before = mx.getCurrentThreadAllocatedBytes();
            int rounds = 5_000;
            for (int i = 0; i < rounds; i++) {
                round.run();
            }
            long perRound = (mx.getCurrentThreadAllocatedBytes() - before) / rounds;
            assertThat(perRound).as("bytes allocated per round of two lists of four on " + ctx.device().name()).isLessThan(16);
        }
    }

    private static void awaitOne(org.jrdma.verbs.CompletionQueue cq, WorkCompletion[] wc, long wrId) {
        long start = System.nanoTime();
        while (cq.poll(wc, 1) == 0) {
            if (System.nanoTime() - start > Duration.ofSeconds(30).toNanos()) {
                throw new AssertionError("no completion within 30 s");
            }
            Thread.onSpinWait();
        }
        if (!wc[0].ok() || wc[0].wrId != wrId) {
            throw new AssertionError("expected wr_id " + wrId + ": " + wc[0]);
        }
    }

    private static final class Rounds implements Runnable {
        private final Endpoint a;
        private final Endpoint b;
        private final Op op;
        private final RecvWorkRequest recv = new RecvWorkRequest();
        private final SendWorkRequest send = new SendWorkRequest();
        private final WorkCompletion[] wc = {new WorkCompletion()};
        private final long deadlineNanos = Duration.ofSeconds(30).toNanos();

        Rounds(Endpoint a, Endpoint b, Op op) {
            this.a = a;
            this.b = b;
            this.op = op;
            int length = switch (op) {
                case SEND_INLINE -> 48;
                case FETCH_ADD -> 8;
                default -> 3000;
            };
            send.flags(SendFlags.SIGNALED | (op == Op.SEND_INLINE ? SendFlags.INLINE : 0))
                    .sg(new Sge(a.sendMr.addr(), length, a.sendMr.lkey()));
            switch (op) {
                case SEND, SEND_INLINE -> send.opcode(WrOpcode.SEND);
                case WRITE -> send.opcode(WrOpcode.RDMA_WRITE).rdma(b.recvMr.addr() + 8192, b.recvMr.rkey());
                case READ -> send.opcode(WrOpcode.RDMA_READ).rdma(b.recvMr.addr() + 8192, b.recvMr.rkey());
                case FETCH_ADD -> send.opcode(WrOpcode.ATOMIC_FETCH_AND_ADD).atomic(b.recvMr.addr(), b.recvMr.rkey(), 1, 0);
            }
            recv.sg(new Sge(b.recvMr.addr(), 3000, b.recvMr.lkey()));
        }

        @Override
        public void run() {
            boolean twoSided = op == Op.SEND || op == Op.SEND_INLINE;
            if (twoSided) {
                b.qp.postRecv(recv.wrId(1));
            }
            a.qp.postSend(send.wrId(2));
            await(a.sendCq);
            if (twoSided) {
                await(b.recvCq);
            }
        }

        private void await(org.jrdma.verbs.CompletionQueue cq) {
            long start = System.nanoTime();
            while (cq.poll(wc, 1) == 0) {
                if (System.nanoTime() - start > deadlineNanos) {
                    throw new AssertionError(op + ": no completion within 30 s");
                }
                Thread.onSpinWait();
            }
            if (!wc[0].ok()) {
                throw new AssertionError(op + ": " + wc[0]);
            }
        }
    }
}
