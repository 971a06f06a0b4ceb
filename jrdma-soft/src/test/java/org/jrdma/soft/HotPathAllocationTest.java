package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import org.jrdma.soft.engine.ThreadingMode;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * DESIGN "hot path without allocation": post_recv, post_send, poll and the packet handling
 * reuse preallocated objects, for every data operation. In INVOKER mode this thread runs every
 * engine pass itself, so its own allocation counter sees all of the work; with the dedicated
 * engine thread the count is taken over every thread of the JVM (the engine parks and wakes in
 * between, as it does under a real application).
 */
class HotPathAllocationTest {
    enum Op { SEND, SEND_INLINE, WRITE, WRITE_INLINE, READ, FETCH_ADD }

    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ
            | AccessFlags.REMOTE_ATOMIC;

    @ParameterizedTest
    @EnumSource(Op.class)
    void roundsAllocateNothingOnceWarmWhenTheCallerRunsTheEngine(Op op) {
        SoftDevice dev = FreshDevices.fresh("alloc", SoftOptions.defaults().threading(ThreadingMode.INVOKER));
        try (RcPair p = new RcPair(dev, Mtu.MTU_1024, 14, 7, 7, 12, 1 << 16, ACCESS, ACCESS, 4)) {
            Rounds r = new Rounds(p, op, true);
            long perRound = measure(r, false);
            assertThat(perRound).as("bytes allocated per " + op + " round").isLessThan(16);
        }
    }

    /** An IPv6 device on ::1 (issue 7): the receive path caches the peer's 16-byte address. */
    @ParameterizedTest
    @EnumSource(value = Op.class, names = {"SEND", "READ"})
    void ipv6RoundsAllocateNothingOnceWarm(Op op) throws Exception {
        SoftDevice dev = new SoftDevice(new SoftDeviceSpec("alloc6", java.net.InetAddress.getByName("::1"), 65536, false),
                SoftOptions.defaults().threading(ThreadingMode.INVOKER));
        try {
            dev.open().close();
        } catch (org.jrdma.verbs.VerbsException e) {
            org.junit.jupiter.api.Assumptions.assumeTrue(e.errno() != org.jrdma.verbs.Errno.EADDRINUSE, "[::1]:4791 is taken");
            throw e;
        }
        try (RcPair p = new RcPair(dev, Mtu.MTU_1024, 14, 7, 7, 12, 1 << 16, ACCESS, ACCESS, 4)) {
            long perRound = measure(new Rounds(p, op, true), false);
            assertThat(perRound).as("bytes allocated per " + op + " round over IPv6").isLessThan(16);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Op.class, names = {"SEND_INLINE", "WRITE", "READ"})
    void roundsAllocateNothingOnceWarmWithTheEngineThread(Op op) {
        SoftDevice dev = FreshDevices.fresh("alloc-thread");
        try (RcPair p = new RcPair(dev, Mtu.MTU_1024, 14, 7, 7, 12, 1 << 16, ACCESS, ACCESS, 4)) {
            Rounds r = new Rounds(p, op, false);
            long perRound = measure(r, true);
            assertThat(perRound).as("bytes allocated per " + op + " round, every thread").isLessThan(16);
        }
    }

    /** Post lists (issue 15): a list of four receives and one of four SENDs per round allocate nothing either. */
    @org.junit.jupiter.api.Test
    void listRoundsAllocateNothingOnceWarm() {
        SoftDevice dev = FreshDevices.fresh("alloc-list", SoftOptions.defaults().threading(ThreadingMode.INVOKER));
        try (RcPair p = new RcPair(dev, Mtu.MTU_1024, 14, 7, 7, 12, 1 << 16, ACCESS, ACCESS, 4)) {
            long perRound = measure(new ListRounds(p), false);
            assertThat(perRound).as("bytes allocated per round of two lists of four").isLessThan(16);
        }
    }

    /** Four SENDs as one list onto four receives posted as one list; every completion awaited. */
    private static final class ListRounds implements Runnable {
        private static final int N = 4;
        private final RcPair p;
        private final RecvWorkRequest[] recvs = new RecvWorkRequest[N];
        private final SendWorkRequest[] sends = new SendWorkRequest[N];
        private final WorkCompletion[] wc = {new WorkCompletion()};

        ListRounds(RcPair p) {
            this.p = p;
            for (int i = N - 1; i >= 0; i--) {
                recvs[i] = new RecvWorkRequest().wrId(10 + i).sg(new Sge(p.mrB.addr() + 1024L * i, 1024, p.mrB.lkey()))
                        .next(i + 1 < N ? recvs[i + 1] : null);
                sends[i] = new SendWorkRequest().wrId(20 + i).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED)
                        .sg(new Sge(p.mrA.addr() + 1024L * i, 1000, p.mrA.lkey())).next(i + 1 < N ? sends[i + 1] : null);
            }
        }

        @Override
        public void run() {
            p.b.postRecv(recvs[0]);
            p.a.postSend(sends[0]);
            for (int i = 0; i < N; i++) {
                await(p.cqA, 20 + i);
            }
            for (int i = 0; i < N; i++) {
                await(p.cqB, 10 + i);
            }
        }

        private void await(org.jrdma.verbs.CompletionQueue cq, long wrId) {
            long spins = 0;
            while (cq.poll(wc) == 0) {
                p.hca().doWork();
                if (++spins > 50_000_000L) {
                    throw new AssertionError("no completion");
                }
            }
            if (wc[0].status != WcStatus.SUCCESS || wc[0].wrId != wrId) { // no AssertJ: it would allocate
                throw new AssertionError("expected wr_id " + wrId + ": " + wc[0]);
            }
        }
    }

    /** Warms up, then returns the bytes allocated per round (this thread, or every thread). */
    private static long measure(Runnable r, boolean allThreads) {
        for (int i = 0; i < 5_000; i++) {
            r.run();
        }
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long[] ids = allThreads ? mx.getAllThreadIds() : new long[] {Thread.currentThread().threadId()};
        long before = sum(mx.getThreadAllocatedBytes(ids));
        int rounds = 20_000;
        for (int i = 0; i < rounds; i++) {
            r.run();
        }
        return (sum(mx.getThreadAllocatedBytes(ids)) - before) / rounds;
    }

    private static long sum(long[] bytes) {
        long s = 0;
        for (long b : bytes) {
            s += Math.max(0, b);
        }
        return s;
    }

    /** One operation and its completions, built once and reused. */
    private static final class Rounds implements Runnable {
        private final RcPair p;
        private final Op op;
        private final boolean invoker;
        private final RecvWorkRequest recv = new RecvWorkRequest();
        private final Sge recvSge = new Sge();
        private final SendWorkRequest send = new SendWorkRequest();
        private final Sge sendSge = new Sge();
        private final WorkCompletion[] wc = {new WorkCompletion()};

        Rounds(RcPair p, Op op, boolean invoker) {
            this.p = p;
            this.op = op;
            this.invoker = invoker;
            int flags = SendFlags.SIGNALED | (op == Op.SEND_INLINE || op == Op.WRITE_INLINE ? SendFlags.INLINE : 0);
            int length = switch (op) {
                case SEND_INLINE, WRITE_INLINE -> 48;
                case FETCH_ADD -> 8;
                default -> 3000;
            };
            send.flags(flags).sg(sendSge);
            sendSge.set(p.mrA.addr(), length, p.mrA.lkey());
            switch (op) {
                case SEND, SEND_INLINE -> send.opcode(WrOpcode.SEND);
                case WRITE, WRITE_INLINE -> send.opcode(WrOpcode.RDMA_WRITE).rdma(p.mrB.addr() + 8192, p.mrB.rkey());
                case READ -> send.opcode(WrOpcode.RDMA_READ).rdma(p.mrB.addr() + 8192, p.mrB.rkey());
                case FETCH_ADD -> send.opcode(WrOpcode.ATOMIC_FETCH_AND_ADD).atomic(p.mrB.addr(), p.mrB.rkey(), 1, 0);
            }
            recv.sg(recvSge);
            recvSge.set(p.mrB.addr(), 3000, p.mrB.lkey());
        }

        @Override
        public void run() {
            boolean twoSided = op == Op.SEND || op == Op.SEND_INLINE;
            if (twoSided) {
                p.b.postRecv(recv.wrId(1));
            }
            p.a.postSend(send.wrId(2));
            awaitOne(false);
            if (twoSided) {
                awaitOne(true);
            }
        }

        /** Polls (which, in INVOKER mode, is also what runs the engine) until one completion. */
        private void awaitOne(boolean receive) {
            WorkCompletion c = null;
            long spins = 0;
            while (c == null) {
                if (invoker) {
                    p.hca().doWork();
                }
                if ((receive ? p.cqB : p.cqA).poll(wc) == 1) {
                    c = wc[0];
                } else if (++spins > 50_000_000L) {
                    throw new AssertionError("no completion");
                }
            }
            if (c.status != WcStatus.SUCCESS) { // no AssertJ here: it would allocate inside the measured loop
                throw new AssertionError("completion failed: " + c);
            }
        }
    }
}
