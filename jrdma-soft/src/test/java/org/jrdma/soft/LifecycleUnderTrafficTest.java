package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/**
 * RELIABILITY-SECURITY REL-27 (a)–(c): destroying things while packets flow. The rxe bugs this
 * guards against are use-after-free at QP cleanup with timers armed ("Fix race in do_task()
 * when draining"), a socket torn down under live QPs, and re-entrant completion handling. Here:
 * no exception escapes, the engine keeps serving the device's other QPs, every outstanding WR of
 * the surviving side completes exactly once (the head with an error, the rest flushed), and the
 * device's QP table and threads return to where they were.
 */
class LifecycleUnderTrafficTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    /** (a) The responder is destroyed with RNR retries and WRITEs in flight; then a requester with its timers armed. */
    @Test
    void rel27aDestroyingAQpWithPacketsInFlightAndTimersArmed() {
        SoftDevice dev = FreshDevices.fresh("rel27a");
        // timeout 8 (~1 ms), retry 2: once b is gone a learns it in milliseconds
        try (RcPair p = new RcPair(dev, Mtu.MTU_1024, 8, 2, 7, 1, 64 << 10, RcPair.REMOTE_ALL, RcPair.REMOTE_ALL, 1)) {
            int baseQps = p.hca().qps().length;
            int n = 0;
            for (int i = 0; i < 8; i++) {
                p.a.postSend(new SendWorkRequest().wrId(n++).opcode(WrOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED)
                        .sg(Sge.of(p.mrA, 0, 8192)).rdma(p.mrB.addr(), p.mrB.rkey()));
            }
            for (int i = 0; i < 8; i++) {
                p.send(n++, 0, 64); // no receive at b: RNR NAKs, RNR timer armed
            }
            RcPair.await(() -> p.a.counters().get("rnr_naks_rcvd") > 0, WAIT, "an RNR NAK, so the RNR timer is armed");
            p.b.close();
            Map<Long, WcStatus> done = drain(p.cqA, n);
            assertThat(done).hasSize(n);
            // the WRITEs went through before the SENDs stalled; the stalled head fails, the rest flush
            List<WcStatus> sends = new ArrayList<>();
            for (long id = 8; id < n; id++) {
                sends.add(done.get(id));
            }
            assertThat(sends.get(0)).isIn(WcStatus.RETRY_EXC_ERR, WcStatus.RNR_RETRY_EXC_ERR);
            assertThat(sends.subList(1, sends.size())).containsOnly(WcStatus.WR_FLUSH_ERR);
            assertThat(RcPair.poll(p.cqA, 1, Duration.ofMillis(100))).as("nothing completes twice").isEmpty();
            assertThat(p.a.state()).isEqualTo(QpState.ERR);

            // A requester destroyed mid-retry: its retransmit timer is armed when close() runs.
            QueuePair c = p.pd.createQp(new QpInitAttr().cq(p.cqA).cap(new QpCap(8, 8, 1, 1, 0)));
            connect(p.ctx, c, 0x00FEDCBA /* nobody */, 0x100, 0x200, 14, 7);
            for (int i = 0; i < 8; i++) {
                c.postSend(new SendWorkRequest().wrId(100 + i).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED).sg(Sge.of(p.mrA, 0, 64)));
            }
            RcPair.await(() -> c.counters().get("sent_packets") >= 8, WAIT, "c's SENDs on the wire");
            c.close();
            assertThat(RcPair.poll(p.cqA, 1, Duration.ofMillis(100))).as("a destroyed QP completes nothing").isEmpty();

            // The engine still serves the device: a fresh pair on it works.
            try (RcPair q = new RcPair(dev, Mtu.MTU_1024, 14, 7, 7, 1, 4096)) {
                q.postRecv(1, 0, 64);
                q.send(2, 0, 64);
                assertThat(RcPair.poll(q.cqB, 1, WAIT)).singleElement().satisfies(wc -> assertThat(wc.status).isEqualTo(WcStatus.SUCCESS));
            }
            assertThat(p.hca().qps().length).isEqualTo(baseQps - 1); // b is gone, c is gone
        }
    }

    /** (b) One side's context is closed while four connections carry WRITEs: the other side ends every WR exactly once. */
    @Test
    void rel27bClosingAContextUnderTrafficEndsEveryPeerWrExactlyOnce() throws Exception {
        SoftDevice devA = FreshDevices.fresh("rel27b_a");
        SoftDevice devB = FreshDevices.fresh("rel27b_b");
        int threadsBefore = Thread.activeCount();
        try (Context ctxA = devA.open(); Arena arena = Arena.ofShared()) {
            Context ctxB = devB.open();
            ProtectionDomain pdA = ctxA.allocPd();
            ProtectionDomain pdB = ctxB.allocPd();
            CompletionQueue cqA = ctxA.createCq(1024, null);
            CompletionQueue cqB = ctxB.createCq(1024, null);
            MemorySegment bufA = arena.allocate(1 << 16, 64);
            MemorySegment bufB = arena.allocate(1 << 16, 64);
            MemoryRegion mrA = pdA.registerMemory(bufA, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = pdB.registerMemory(bufB, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
            List<QueuePair> as = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                QueuePair a = pdA.createQp(new QpInitAttr().cq(cqA).cap(new QpCap(80, 4, 1, 1, 0)));
                QueuePair b = pdB.createQp(new QpInitAttr().cq(cqB).cap(new QpCap(64, 4, 1, 1, 0)));
                connect(ctxB, a, b.qpNum(), 0x10, 0x20, 8, 2);
                connect(ctxA, b, a.qpNum(), 0x20, 0x10, 8, 2);
                as.add(a);
            }
            int perQp = 64;
            for (int w = 0; w < perQp; w++) {
                for (int q = 0; q < as.size(); q++) {
                    as.get(q).postSend(new SendWorkRequest().wrId(q * 1000L + w).opcode(WrOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED)
                            .sg(Sge.of(mrA, 0, 16384)).rdma(mrB.addr(), mrB.rkey()));
                }
            }
            RcPair.await(() -> as.stream().allMatch(a -> a.counters().get("acks_rcvd") + a.counters().get("sent_packets") > 20),
                    WAIT, "traffic on every connection");
            ctxB.close(); // PDs, QPs, MRs, CQs of B go, and B's engine and socket with them
            // One more WRITE per connection after the close: on a fast machine every earlier one
            // may have been ACKed already, and this one is sure to meet the dead peer.
            for (int q = 0; q < as.size(); q++) {
                as.get(q).postSend(new SendWorkRequest().wrId(q * 1000L + perQp).opcode(WrOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED)
                        .sg(Sge.of(mrA, 0, 16384)).rdma(mrB.addr(), mrB.rkey()));
            }
            Map<Long, WcStatus> done = drain(cqA, as.size() * (perQp + 1));
            assertThat(done).hasSize(as.size() * (perQp + 1));
            for (int q = 0; q < as.size(); q++) {
                boolean failed = false;
                for (int w = 0; w <= perQp; w++) {
                    WcStatus s = done.get(q * 1000L + w);
                    if (failed) {
                        assertThat(s).as("QP %d WR %d after the failure", q, w).isEqualTo(WcStatus.WR_FLUSH_ERR);
                    } else if (s != WcStatus.SUCCESS) {
                        assertThat(s).as("QP %d WR %d", q, w).isEqualTo(WcStatus.RETRY_EXC_ERR);
                        failed = true;
                    }
                }
            }
            assertThat(RcPair.poll(cqA, 1, Duration.ofMillis(100))).as("nothing completes twice").isEmpty();
            Map<WcStatus, Long> byStatus = new java.util.TreeMap<>();
            done.values().forEach(s -> byStatus.merge(s, 1L, Long::sum));
            System.out.println("REL-27b: the peer's context closed under 4 x 64 WRITEs of 16 KiB (+1 each after): " + byStatus);
            assertThat(byStatus).containsKey(WcStatus.RETRY_EXC_ERR);
        }
        RcPair.await(() -> Thread.activeCount() <= threadsBefore, WAIT, "both engine threads gone");
    }

    /** (c) Four threads poll one CQ while 4000 WRITEs complete into it: each completion is taken exactly once. */
    @Test
    void rel27cConcurrentPollersTakeEachCompletionExactlyOnce() throws Exception {
        int total = 4000;
        try (RcPair p = new RcPair(FreshDevices.fresh("rel27c"), Mtu.MTU_1024, 14, 7, 7, 1, 4096,
                RcPair.REMOTE_ALL, RcPair.REMOTE_ALL, 1)) {
            Map<Long, Integer> seen = new ConcurrentHashMap<>();
            AtomicInteger completed = new AtomicInteger();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> pollers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                pollers.add(Thread.ofPlatform().name("rel27c-poller-" + t).start(() -> {
                    WorkCompletion[] wc = {new WorkCompletion(), new WorkCompletion(), new WorkCompletion()};
                    long end = System.nanoTime() + WAIT.toNanos() * 2;
                    while (completed.get() < total && System.nanoTime() < end) {
                        int k = p.cqA.poll(wc);
                        for (int i = 0; i < k; i++) {
                            if (wc[i].status != WcStatus.SUCCESS) {
                                failure.compareAndSet(null, new AssertionError("wr " + wc[i].wrId + ": " + wc[i].status));
                            }
                            seen.merge(wc[i].wrId, 1, Integer::sum);
                        }
                        completed.addAndGet(k);
                        if (k == 0) {
                            Thread.onSpinWait();
                        }
                    }
                }));
            }
            long posted = 0;
            long end = System.nanoTime() + WAIT.toNanos() * 2;
            while (posted < total && System.nanoTime() < end) {
                if (posted - completed.get() < 48) {
                    p.a.postSend(new SendWorkRequest().wrId(posted++).opcode(WrOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED)
                            .sg(Sge.of(p.mrA, 0, 64)).rdma(p.mrB.addr(), p.mrB.rkey()));
                } else {
                    Thread.onSpinWait();
                }
            }
            for (Thread t : pollers) {
                t.join();
            }
            assertThat(failure.get()).isNull();
            assertThat(completed.get()).isEqualTo(total);
            assertThat(seen).hasSize(total);
            assertThat(seen.values()).containsOnly(1);
        }
    }

    /** Polls until {@code n} completions arrived, keyed by wrId; a second completion for one WR fails the test. */
    private static Map<Long, WcStatus> drain(CompletionQueue cq, int n) {
        Map<Long, WcStatus> done = new HashMap<>();
        for (WorkCompletion wc : RcPair.poll(cq, n, WAIT)) {
            assertThat(done.put(wc.wrId, wc.status)).as("wr %d completed twice", wc.wrId).isNull();
        }
        return done;
    }

    private static void connect(Context peerCtx, QueuePair qp, int remote, int sqPsn, int rqPsn, int timeout, int retry) {
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(RcPair.REMOTE_ALL));
        qp.modify(new QpAttr().state(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(remote).rqPsn(rqPsn).maxDestRdAtomic(1)
                .minRnrTimer(1).ahAttr(AhAttr.roce(peerCtx.queryGid(1, 0), 0, 1)));
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(sqPsn).timeout(timeout).retryCnt(retry).rnrRetry(7).maxRdAtomic(1));
    }
}
