package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.Mtu;
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
 * RELIABILITY-SECURITY SEC-32 (ReDMArk A5, flood degradation): a victim connection doing 4 KiB
 * WRITEs, 16 in flight, shares a device with N = 1, 2, 4, 8 attacker connections each keeping
 * 16 WRITEs of 64 KiB in flight (from their own thread, as another client would) — sixteen
 * times the victim's bytes per WR. Asserted: every WRITE of both completes successfully and the
 * victim keeps making progress. Measured and printed per N: the victim's throughput against
 * its throughput alone and against the fair share 1/(N+1) (the catalogue's derived bar). On the
 * shared 2-core test machine the victim got well below its fair share (about 8–14 % of its
 * solo rate with one attacker): the engine's per-QP burst is fair in packets per pass, but the
 * victim's many small messages each wait for an ACK behind the attackers' packets in the one
 * receive queue. Recorded as an open finding in docs/catalogue/dos-lifecycle.md (SEC-32).
 */
class FloodDegradationTest {
    private static final int VICTIM_OPS = Integer.getInteger("jrdma.flood.victimOps", 1500);
    private static final int VICTIM_SIZE = 4096;
    private static final int ATTACK_SIZE = 65536;
    private static final int WINDOW = 16;
    /**
     * 4.096 µs × 2^18 ≈ 1.07 s a try, 8.6 s before RETRY_EXC_ERR. Nothing is lost on loopback;
     * what the timer meets is the flood itself: 8 MiB of attack WRITEs queue in the device's one
     * socket ahead of each victim request and again ahead of its ACK, and on a loaded machine,
     * where the engine gets a fraction of a core, that took longer than timeout 14's 537 ms
     * budget — the victim ended in RETRY_EXC_ERR, and its go-back-N added to the queue.
     */
    private static final int TIMEOUT = 18;

    @Test
    void sec32AVictimKeepsItsShareWhileAttackersFloodWrites() throws Exception {
        try (RcPair p = new RcPair(FreshDevices.fresh("sec32"), Mtu.MTU_1024, TIMEOUT, 7, 7, 1, 1 << 20, RcPair.REMOTE_ALL,
                RcPair.REMOTE_ALL, 1); Arena arena = Arena.ofShared()) {
            MemorySegment big = arena.allocate(ATTACK_SIZE * 2L, 64);
            MemoryRegion bigMr = p.pd.registerMemory(big, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
            CompletionQueue attackCq = p.ctx.createCq(4096, null);
            List<QueuePair> attackers = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                QueuePair x = p.pd.createQp(new QpInitAttr().cq(attackCq).cap(new QpCap(WINDOW, 1, 1, 1, 0)));
                QueuePair y = p.pd.createQp(new QpInitAttr().cq(attackCq).cap(new QpCap(1, 1, 1, 1, 0)));
                connect(p, x, y.qpNum());
                connect(p, y, x.qpNum());
                attackers.add(x);
            }
            run(p, List.of(), attackCq, bigMr); // warm-up
            double alone = run(p, List.of(), attackCq, bigMr)[0];
            System.out.printf("SEC-32: victim alone: %.0f MB/s of 4 KiB WRITEs%n", alone / 1e6);
            for (int n : new int[] {1, 2, 4, 8}) {
                double[] r = run(p, attackers.subList(0, n), attackCq, bigMr);
                double share = r[0] / (r[0] + r[1]);
                System.out.printf("SEC-32: N=%d attackers (64 KiB WRITEs): victim %.0f MB/s (%.0f%% of alone, fair share %.0f%%),"
                                + " attackers %.0f MB/s, victim's share of the bytes %.0f%%%n",
                        n, r[0] / 1e6, 100 * r[0] / alone, 100.0 / (n + 1), r[1] / 1e6, 100 * share);
                // Measured, not asserted against the fair share: see the class comment (an open finding).
                assertThat(r[0]).as("victim throughput with %d attackers", n).isPositive();
            }
            assertThat(p.a.state()).isEqualTo(QpState.RTS);
            for (QueuePair x : attackers) {
                x.close();
            }
        }
    }

    /**
     * Runs until the victim did VICTIM_OPS WRITEs; returns {victim bytes/s, attacker bytes/s}.
     * The attackers are another client: their own thread keeps their windows full.
     */
    private static double[] run(RcPair p, List<QueuePair> attackers, CompletionQueue attackCq, MemoryRegion bigMr)
            throws InterruptedException {
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicLong attackBytes = new java.util.concurrent.atomic.AtomicLong();
        Thread attack = Thread.ofPlatform().name("sec32-attackers").start(() -> {
            int[] inFlight = new int[attackers.size()];
            WorkCompletion[] wc = completions();
            while (!stop.get()) {
                for (int i = 0; i < attackers.size(); i++) {
                    while (inFlight[i] < WINDOW) {
                        attackers.get(i).postSend(new SendWorkRequest().wrId(i).opcode(WrOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED)
                                .sg(Sge.of(bigMr, 0, ATTACK_SIZE)).rdma(bigMr.addr() + ATTACK_SIZE, bigMr.rkey()));
                        inFlight[i]++;
                    }
                }
                int m = attackCq.poll(wc);
                for (int i = 0; i < m; i++) {
                    inFlight[(int) wc[i].wrId]--;
                    attackBytes.addAndGet(ATTACK_SIZE);
                }
                if (m == 0) {
                    Thread.onSpinWait();
                }
            }
            // let the WRITEs still in flight finish, so the next run starts clean
            long end = System.nanoTime() + 30_000_000_000L;
            int left = java.util.Arrays.stream(inFlight).sum();
            while (left > 0 && System.nanoTime() < end) {
                left -= attackCq.poll(wc);
            }
        });
        long posted = 0;
        long done = 0;
        WorkCompletion[] wc = completions();
        long t0 = System.nanoTime();
        long attack0 = attackBytes.get();
        while (done < VICTIM_OPS) {
            while (posted - done < WINDOW && posted < VICTIM_OPS) {
                p.a.postSend(new SendWorkRequest().wrId(posted).opcode(WrOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED)
                        .sg(Sge.of(p.mrA, (posted % 64) * VICTIM_SIZE, VICTIM_SIZE)).rdma(p.mrB.addr(), p.mrB.rkey()));
                posted++;
            }
            int k = p.cqA.poll(wc);
            for (int i = 0; i < k; i++) {
                assertThat(wc[i].status).isEqualTo(WcStatus.SUCCESS);
            }
            done += k;
            if (k == 0) {
                Thread.onSpinWait();
            }
        }
        double s = (System.nanoTime() - t0) / 1e9;
        long attacked = attackBytes.get() - attack0;
        stop.set(true);
        attack.join();
        return new double[] {(double) VICTIM_OPS * VICTIM_SIZE / s, attacked / s};
    }

    private static WorkCompletion[] completions() {
        WorkCompletion[] wc = new WorkCompletion[32];
        for (int i = 0; i < wc.length; i++) {
            wc[i] = new WorkCompletion();
        }
        return wc;
    }

    private static void connect(RcPair p, QueuePair qp, int remote) {
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(RcPair.REMOTE_ALL));
        qp.modify(new QpAttr().state(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(remote).rqPsn(0x40).maxDestRdAtomic(1)
                .minRnrTimer(1).ahAttr(AhAttr.roce(p.ctx.queryGid(1, 0), 0, 1)));
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(0x40).timeout(TIMEOUT).retryCnt(7).rnrRetry(7).maxRdAtomic(1));
    }
}
