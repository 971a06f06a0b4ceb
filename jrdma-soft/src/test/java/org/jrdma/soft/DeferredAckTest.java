package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
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
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/**
 * ACKs held for one engine pass: an answer posted by the application that polled the request
 * leaves before the request's ACK; with no one polling, the engine thread still sends it, and
 * well inside the requester's ACK timeout.
 */
class DeferredAckTest {
    private static final int SEND_ONLY = 0x04;
    private static final int ACKNOWLEDGE = 0x11;

    @Test
    void theAnswerPostedAfterTheCompletionLeavesBeforeTheAck() {
        List<Integer> sent = new CopyOnWriteArrayList<>();
        FilteringDatagrams[] made = new FilteringDatagrams[1];
        SoftOptions options = SoftOptions.defaults().threading(ThreadingMode.INVOKER)
                .datagrams(FilteringDatagrams.factory((index, opcode, psn) -> {
                    sent.add(opcode);
                    return false;
                }, made));
        SoftDevice dev = FreshDevices.fresh("deferred", options);
        sent.clear(); // the probe in fresh() sent nothing, but start from a clean record anyway
        try (RcPair p = new RcPair(dev, Mtu.MTU_1024, 14, 7, 7, 12, 1 << 16)) {
            WorkCompletion[] wc = {new WorkCompletion()};
            p.postRecv(1, 0, 64);
            p.send(2, 0, 64); // A → B
            p.hca().doWork(); // pass 1: A's SEND goes out
            p.hca().doWork(); // pass 2: B receives it; its ACK is held
            assertThat(p.cqB.poll(wc)).isEqualTo(1);
            assertThat(wc[0].status).isEqualTo(WcStatus.SUCCESS);
            assertThat(sent).containsExactly(SEND_ONLY);

            // B answers, as a ping-pong does, before the engine's next pass
            p.a.postRecv(new RecvWorkRequest().wrId(3).sg(Sge.of(p.mrA, 4096, 64)));
            p.b.postSend(new SendWorkRequest().wrId(4).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED)
                    .sg(Sge.of(p.mrB, 4096, 64)));
            p.hca().doWork(); // pass 3: the answer, then the held ACK
            assertThat(sent).containsExactly(SEND_ONLY, SEND_ONLY, ACKNOWLEDGE);

            p.hca().doWork(); // pass 4: A gets both; the ACK of B's answer is held
            p.hca().doWork(); // pass 5: …and sent
            assertThat(sent).containsExactly(SEND_ONLY, SEND_ONLY, ACKNOWLEDGE, ACKNOWLEDGE);
            assertThat(RcPair.poll(p.cqA, 2, Duration.ofSeconds(1))).extracting(c -> c.wrId).containsExactlyInAnyOrder(2L, 3L);
            p.hca().doWork(); // pass 6: B gets that ACK
            assertThat(p.cqB.poll(wc)).isEqualTo(1);
            assertThat(wc[0].wrId).isEqualTo(4L);
            assertThat(p.hca().countersSnapshot().get("retransmitted_packets")).isZero();
        }
    }

    /**
     * B's application polls its receive and then stops polling without blocking: the ACK it
     * holds must still go out (the engine thread sends it), long before A's 4-second ACK timeout.
     */
    @Test
    void anAckHeldWhenTheApplicationStopsPollingIsSentByTheEngineThread() {
        SoftDevice devA = FreshDevices.fresh("held-a");
        SoftDevice devB = FreshDevices.fresh("held-b");
        try (Context ctxA = devA.open(); Context ctxB = devB.open(); Arena arena = Arena.ofShared()) {
            Side a = new Side(ctxA, arena);
            Side b = new Side(ctxB, arena);
            a.connect(b, 20); // 4.096 µs × 2^20 ≈ 4.3 s
            b.connect(a, 20);
            b.qp.postRecv(new RecvWorkRequest().wrId(1).sg(Sge.of(b.mr, 0, 64)));
            a.qp.postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED)
                    .sg(Sge.of(a.mr, 0, 64)));
            assertThat(RcPair.poll(b.cq, 1, Duration.ofSeconds(10))).hasSize(1); // B stops polling here
            List<WorkCompletion> done = RcPair.poll(a.cq, 1, Duration.ofSeconds(3));
            assertThat(done).as("A's SEND completed by B's ACK").hasSize(1);
            assertThat(done.getFirst().status).isEqualTo(WcStatus.SUCCESS);
            assertThat(a.qp.counters().get("retry_timeouts")).as("not by a retransmission").isZero();
        }
    }

    /** One end of a two-device connection. */
    private static final class Side {
        final Context ctx;
        final ProtectionDomain pd;
        final CompletionQueue cq;
        final QueuePair qp;
        final MemoryRegion mr;

        Side(Context ctx, Arena arena) {
            this.ctx = ctx;
            this.pd = ctx.allocPd();
            this.cq = ctx.createCq(16, null);
            this.qp = pd.createQp(new QpInitAttr().cq(cq).cap(new QpCap(8, 8, 1, 1, 64)));
            MemorySegment buf = arena.allocate(4096, 64);
            this.mr = pd.registerMemory(buf, AccessFlags.LOCAL_WRITE);
        }

        void connect(Side peer, int timeout) {
            qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(0));
            qp.modify(new QpAttr().state(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(peer.qp.qpNum()).rqPsn(0x100)
                    .maxDestRdAtomic(1).minRnrTimer(12).ahAttr(AhAttr.roce(peer.ctx.queryGid(1, 0), 0, 1)));
            qp.modify(new QpAttr().state(QpState.RTS).sqPsn(0x100).timeout(timeout).retryCnt(7).rnrRetry(7).maxRdAtomic(1));
        }
    }
}
