package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import org.jrdma.soft.engine.SoftHca;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.CompletionChannel;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Errno;
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
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/**
 * RELIABILITY-SECURITY SEC-34: with rnr_retry 7 a SEND to a peer that never posts a receive
 * is retried for ever and, per the spec, never completes (rdma-unit-test SendRnrInfiniteRetries;
 * RnrSuite proves that part). The application is not stuck with it: every blocking wait in the
 * API takes a deadline ({@link CompletionChannel#getEvent(Duration)} throws ETIMEDOUT), and
 * moving the QP to ERR at that deadline flushes the stuck WR — exactly one WR_FLUSH_ERR
 * completion, after which the QP sends nothing more. This is the documented pattern
 * (docs/catalogue/dos-lifecycle.md, "Operation deadlines").
 */
class RnrDeadlineTest {
    @Test
    void sec34ADeadlineAndModifyToErrEndAnInfiniteRnrRetryWithOneFlushCompletion() {
        SoftDevice dev = FreshDevices.fresh("sec34");
        try (Context ctx = dev.open(); Arena arena = Arena.ofShared()) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionChannel channel = ctx.createCompChannel();
            CompletionQueue cqA = ctx.createCq(16, channel);
            CompletionQueue cqB = ctx.createCq(16, null);
            QueuePair a = pd.createQp(new QpInitAttr().cq(cqA).cap(new QpCap(8, 8, 1, 1, 0)));
            QueuePair b = pd.createQp(new QpInitAttr().cq(cqB).cap(new QpCap(8, 8, 1, 1, 0)));
            MemorySegment buf = arena.allocate(64, 64);
            MemoryRegion mr = pd.registerMemory(buf, AccessFlags.LOCAL_WRITE);
            connect(ctx, a, b.qpNum(), 0x100, 0x200);
            connect(ctx, b, a.qpNum(), 0x200, 0x100);

            cqA.requestNotify(false);
            a.postSend(new SendWorkRequest().wrId(42).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED).sg(Sge.of(mr, 0, 64)));
            Duration deadline = Duration.ofMillis(300);
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> channel.getEvent(deadline)).isInstanceOf(VerbsException.class)
                    .extracting(e -> ((VerbsException) e).errno()).isEqualTo(Errno.ETIMEDOUT);
            long waited = System.nanoTime() - t0;
            SoftHca hca = ((SoftContext) ctx).hca();
            long rnrNaks = a.counters().get("rnr_naks_rcvd");
            assertThat(rnrNaks).as("RNR NAKs a received while waiting").isPositive();
            assertThat(a.state()).isEqualTo(QpState.RTS); // still retrying: the spec's "no completion ever"

            a.modify(new QpAttr().state(QpState.ERR));
            CompletionQueue signalled = channel.getEvent(Duration.ofSeconds(10));
            assertThat(signalled).isSameAs(cqA);
            cqA.ackEvents(1);
            WorkCompletion[] wc = {new WorkCompletion(), new WorkCompletion()};
            int n = 0;
            long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (n == 0 && System.nanoTime() < end) {
                n = cqA.poll(wc);
            }
            assertThat(n).isEqualTo(1);
            assertThat(wc[0].wrId).isEqualTo(42);
            assertThat(wc[0].status).isEqualTo(WcStatus.WR_FLUSH_ERR);
            // exactly once: nothing more comes, and the QP in ERR sends no further retries
            long txBefore = a.counters().get("sent_packets");
            assertThat(RcPair.poll(cqA, 1, Duration.ofMillis(200))).isEmpty();
            assertThat(a.counters().get("sent_packets")).isEqualTo(txBefore);
            System.out.printf("SEC-34: the wait gave up after %.0f ms (deadline %d ms; RNR NAKs counted so far: %d);"
                    + " ERR flushed the SEND once%n", waited / 1e6, deadline.toMillis(), rnrNaks);
            a.close();
            b.close();
            cqA.close();
            cqB.close();
            channel.close();
            mr.close();
            pd.close();
        }
    }

    private static void connect(Context ctx, QueuePair qp, int remote, int sqPsn, int rqPsn) {
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(0));
        qp.modify(new QpAttr().state(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(remote).rqPsn(rqPsn).maxDestRdAtomic(1)
                .minRnrTimer(1).ahAttr(AhAttr.roce(ctx.queryGid(1, 0), 0, 1)));
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(sqPsn).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(1));
    }
}
