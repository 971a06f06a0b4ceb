package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.soft.engine.SoftHca;
import org.jrdma.soft.engine.ThreadingMode;
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
 * Work only where there is work (issue 15): beside a thousand connected, idle QPs, an engine
 * pass visits the one QP that moves data — and an idle QP that is posted to again, or that a
 * packet reaches, is visited again. INVOKER mode: the test steps both engines itself.
 */
class IdleQpsTest {
    private static final int IDLE = 1000;

    @Test
    void passesVisitTheBusyQpAloneAndIdleOnesComeBackWhenPostedTo() {
        SoftOptions invoker = SoftOptions.defaults().threading(ThreadingMode.INVOKER);
        try (Context a = FreshDevices.fresh("idle_a", invoker).open(); Context b = FreshDevices.fresh("idle_b", invoker).open();
                Arena arena = Arena.ofShared()) {
            SoftHca ha = FreshDevices.hca(a);
            SoftHca hb = FreshDevices.hca(b);
            ProtectionDomain pa = a.allocPd();
            ProtectionDomain pb = b.allocPd();
            CompletionQueue cqa = a.createCq(64, null);
            CompletionQueue cqb = b.createCq(64, null);
            MemorySegment src = arena.allocate(4096);
            MemorySegment dst = arena.allocate(4096);
            MemoryRegion ma = pa.registerMemory(src, AccessFlags.LOCAL_WRITE);
            MemoryRegion mb = pb.registerMemory(dst, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);

            List<QueuePair> idleA = new ArrayList<>();
            List<QueuePair> idleB = new ArrayList<>();
            for (int i = 0; i < IDLE; i++) {
                idleA.add(qp(pa, cqa));
                idleB.add(qp(pb, cqb));
            }
            for (int i = 0; i < IDLE; i++) {
                connect(idleA.get(i), idleB.get(i).qpNum(), b);
                connect(idleB.get(i), idleA.get(i).qpNum(), a);
            }
            QueuePair busyA = qp(pa, cqa);
            QueuePair busyB = qp(pb, cqb);
            connect(busyA, busyB.qpNum(), b);
            connect(busyB, busyA.qpNum(), a);

            step(ha, hb); // the modifies rang 1,001 doorbells: one visit each, then nothing keeps them
            assertThat(ha.activeQps()).as("connected but idle QPs are not visited").isZero();
            assertThat(hb.activeQps()).isZero();

            SendWorkRequest wr = new SendWorkRequest().opcode(WrOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED)
                    .sg(Sge.of(ma)).rdma(mb.addr(), mb.rkey());
            WorkCompletion[] wc = {new WorkCompletion()};
            int maxVisitsA = 0;
            int maxVisitsB = 0;
            long visitsB = 0;
            for (int k = 0; k < 50; k++) {
                busyA.postSend(wr);
                long deadline = System.nanoTime() + 10_000_000_000L;
                int n;
                while ((n = cqa.poll(wc)) == 0) {
                    ha.doWork();
                    maxVisitsA = Math.max(maxVisitsA, ha.lastPassVisits());
                    hb.doWork();
                    maxVisitsB = Math.max(maxVisitsB, hb.lastPassVisits());
                    visitsB += hb.lastPassVisits();
                    assertThat(System.nanoTime()).as("WRITE %d completes", k).isLessThan(deadline);
                }
                assertThat(wc[0].status).isEqualTo(WcStatus.SUCCESS);
            }
            assertThat(maxVisitsA).as("a pass of the requester's side visits the busy QP alone").isEqualTo(1);
            assertThat(maxVisitsB).as("and one of the responder's side too").isEqualTo(1);
            assertThat(visitsB).as("the responder's QP is visited when the WRITEs arrive").isGreaterThanOrEqualTo(50);

            // An idle QP posted to is visited again, and its WRITE completes like the busy one's.
            QueuePair woken = idleA.get(IDLE / 2);
            woken.postSend(wr.wrId(7));
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (cqa.poll(wc) == 0) {
                step(ha, hb);
                assertThat(System.nanoTime()).as("the woken QP's WRITE completes").isLessThan(deadline);
            }
            assertThat(wc[0].status).isEqualTo(WcStatus.SUCCESS);
            assertThat(wc[0].wrId).isEqualTo(7);
            assertThat(wc[0].qpNum).isEqualTo(woken.qpNum());
            for (int i = 0; i < 3; i++) {
                step(ha, hb); // the last ACKs; then nothing has work or a timer
            }
            assertThat(ha.activeQps()).as("every QP idle again").isZero();
            assertThat(hb.activeQps()).isZero();
        }
    }

    private static void step(SoftHca ha, SoftHca hb) {
        ha.doWork();
        hb.doWork();
    }

    private static QueuePair qp(ProtectionDomain pd, CompletionQueue cq) {
        return pd.createQp(new QpInitAttr().cq(cq).cap(new QpCap(4, 4, 1, 1, 0)));
    }

    private static void connect(QueuePair qp, int remote, Context peer) {
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(AccessFlags.REMOTE_WRITE));
        qp.modify(new QpAttr().state(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(remote).rqPsn(1).maxDestRdAtomic(1)
                .minRnrTimer(1).ahAttr(AhAttr.roce(peer.queryGid(1, 0), 0, 1)));
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(1).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(1));
    }
}
