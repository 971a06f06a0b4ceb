package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
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
 * SEC-50 (RELIABILITY-SECURITY §6.5, the Pythia analogue): does a READ reveal whether another
 * client touched the same region just before? Hardware leaks it through the NIC's translation
 * cache; the soft provider has no cache keyed by rkey or address — the rkey lookup is one
 * probe of a hash table whatever was used before — so the two latency distributions should be
 * alike. The test reads 64 bytes from a "hot" region (READ by another connection right before)
 * or a "cold" one (one of 2,048 regions, each used once), interleaved at random, and prints the
 * KS distance and the AUC of a latency classifier (catalogue bar [derived]: AUC ≤ 0.55). The
 * figures are printed, not asserted: on a loaded machine scheduling noise, not the provider,
 * decides them.
 */
class LookupTimingTest {
    private static final int SAMPLES = Integer.getInteger("jrdma.lookup.samples", 400);
    private static final int COLD = 2048;
    private static final Duration DEADLINE = Duration.ofSeconds(20);

    @Test
    void sec50ReadLatencyDoesNotTellARecentlyUsedRegionFromAnUnusedOne() {
        try (RcPair p = new RcPair(FreshDevices.fresh("pythia"), Mtu.MTU_1024, 14, 7, 7, 12, 64 * (COLD + 1),
                RcPair.REMOTE_ALL, RcPair.REMOTE_ALL, 4)) {
            // The other client: a second connection to the same responder PD.
            CompletionQueue cqC = p.ctx.createCq(64, null);
            CompletionQueue cqD = p.ctx.createCq(64, null);
            QueuePair c = p.pd.createQp(new QpInitAttr().cq(cqC).cap(new QpCap(8, 8, 1, 1, 0)));
            QueuePair d = p.pd.createQp(new QpInitAttr().cq(cqD).cap(new QpCap(8, 8, 1, 1, 0)));
            connect(p, c, d.qpNum());
            connect(p, d, c.qpNum());
            p.fill(p.bufB, 50);
            MemoryRegion hot = p.pd.registerMemory(p.bufB.asSlice(0, 64), RcPair.REMOTE_ALL);
            List<MemoryRegion> cold = new ArrayList<>();
            for (int i = 1; i <= COLD; i++) {
                cold.add(p.pd.registerMemory(p.bufB.asSlice(64L * i, 64), RcPair.REMOTE_ALL));
            }
            for (int i = 0; i < 200; i++) { // JIT first: not measured
                read(c, cqC, p.mrA, 4096, hot);
                read(p.a, p.cqA, p.mrA, 0, hot);
            }
            List<Long> hotNanos = new ArrayList<>();
            List<Long> coldNanos = new ArrayList<>();
            SplittableRandom random = new SplittableRandom(0x5EC50);
            int nextCold = 0;
            for (int i = 0; i < 2 * SAMPLES && nextCold < COLD; i++) {
                read(c, cqC, p.mrA, 4096, hot); // the other client touches the hot region
                boolean useHot = random.nextBoolean();
                MemoryRegion target = useHot ? hot : cold.get(nextCold++);
                long t0 = System.nanoTime();
                read(p.a, p.cqA, p.mrA, 0, target);
                long t = System.nanoTime() - t0;
                assertThat(p.bufA.asSlice(0, 64).mismatch(target.segment())).as("the READ's data").isEqualTo(-1);
                (useHot ? hotNanos : coldNanos).add(t);
            }
            System.out.printf("SEC-50 hot  (READ by another client just before) x%d: %s%n", hotNanos.size(),
                    Distributions.summary(hotNanos));
            System.out.printf("SEC-50 cold (never read before)                  x%d: %s%n", coldNanos.size(),
                    Distributions.summary(coldNanos));
            System.out.printf("SEC-50 KS distance %.3f, AUC %.3f (bar [derived]: AUC ≤ 0.55)%n",
                    Distributions.ks(hotNanos, coldNanos), Distributions.auc(hotNanos, coldNanos));
            c.close();
            d.close();
        }
    }

    private static void read(QueuePair qp, CompletionQueue cq, MemoryRegion local, long offset, MemoryRegion remote) {
        qp.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.RDMA_READ).flags(SendFlags.SIGNALED)
                .sg(Sge.of(local, offset, 64)).rdma(remote.addr(), remote.rkey()));
        WorkCompletion wc = RcPair.poll(cq, 1, DEADLINE).getFirst();
        assertThat(wc.status).isEqualTo(WcStatus.SUCCESS);
    }

    private static void connect(RcPair p, QueuePair qp, int remote) {
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(RcPair.REMOTE_ALL));
        qp.modify(new QpAttr().state(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(remote).rqPsn(0x30)
                .maxDestRdAtomic(4).minRnrTimer(12).ahAttr(AhAttr.roce(p.ctx.queryGid(1, 0), 0, 1)));
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(0x30).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(4));
    }

}
