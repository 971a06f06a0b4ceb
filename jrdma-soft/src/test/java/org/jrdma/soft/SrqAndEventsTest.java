package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.List;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.AsyncEvent;
import org.jrdma.verbs.AsyncEventType;
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
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.SharedReceiveQueue;
import org.jrdma.verbs.SrqInitAttr;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/** Shared receive queues and asynchronous events on the soft provider. */
class SrqAndEventsTest {
    private static final Duration DEADLINE = Duration.ofSeconds(10);

    @Test
    void twoQpsShareAnSrqAndTheLimitEventFiresOnce() {
        try (Context ctx = FreshDevices.fresh("srq").open(); Arena arena = Arena.ofShared()) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(128, null);
            SharedReceiveQueue srq = pd.createSrq(new SrqInitAttr(16, 1, 0));
            MemorySegment buf = arena.allocate(1 << 16);
            MemoryRegion mr = pd.registerMemory(buf, AccessFlags.LOCAL_WRITE);
            QueuePair s1 = qp(pd, cq, null);
            QueuePair s2 = qp(pd, cq, null);
            QueuePair r1 = qp(pd, cq, srq);
            QueuePair r2 = qp(pd, cq, srq);
            connect(ctx, s1, r1);
            connect(ctx, s2, r2);
            assertThatThrownBy(() -> r1.postRecv(new RecvWorkRequest().wrId(1).sg(Sge.of(mr, 0, 64))))
                    .isInstanceOfSatisfying(VerbsException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EINVAL));
            for (int i = 0; i < 6; i++) {
                srq.postRecv(new RecvWorkRequest().wrId(100 + i).sg(Sge.of(mr, 1024L * i, 1024)));
            }
            srq.armLimit(3);
            s1.postSend(new SendWorkRequest().wrId(1).flags(SendFlags.SIGNALED).sg(Sge.of(mr, 40000, 10)));
            s2.postSend(new SendWorkRequest().wrId(2).flags(SendFlags.SIGNALED).sg(Sge.of(mr, 40000, 20)));
            s1.postSend(new SendWorkRequest().wrId(3).flags(SendFlags.SIGNALED).sg(Sge.of(mr, 40000, 30)));
            s2.postSend(new SendWorkRequest().wrId(4).flags(SendFlags.SIGNALED).sg(Sge.of(mr, 40000, 40)));
            List<WorkCompletion> wcs = RcPair.poll(cq, 8, DEADLINE);
            assertThat(wcs).hasSize(8).allSatisfy(wc -> assertThat(wc.status).isEqualTo(WcStatus.SUCCESS));
            // The SRQ's receives went out in post order, whichever QP took them.
            assertThat(wcs.stream().filter(wc -> wc.wrId >= 100).map(wc -> wc.wrId)).containsExactly(100L, 101L, 102L, 103L);
            AsyncEvent e = ctx.getAsyncEvent(DEADLINE);
            assertThat(e.type()).isEqualTo(AsyncEventType.SRQ_LIMIT_REACHED);
            assertThat(e.srq()).isSameAs(srq);
            e.ack();
            assertThat(srq.query().srqLimit()).as("the limit disarms once it fired").isZero();
            assertThatThrownBy(() -> ctx.getAsyncEvent(Duration.ofMillis(50)))
                    .isInstanceOfSatisfying(VerbsException.class, x -> assertThat(x.errno()).isEqualTo(Errno.ETIMEDOUT));
            assertThatThrownBy(srq::close).isInstanceOfSatisfying(VerbsException.class, x -> assertThat(x.errno()).isEqualTo(Errno.EBUSY));

            r1.modify(new QpAttr().state(QpState.ERR));
            AsyncEvent last = ctx.getAsyncEvent(DEADLINE);
            assertThat(last.type()).isEqualTo(AsyncEventType.QP_LAST_WQE_REACHED);
            assertThat(last.qp()).isSameAs(r1);
            last.ack();
        }
    }

    @Test
    void aResponderAccessErrorRaisesQpAccessErr() {
        try (RcPair p = new RcPair(FreshDevices.fresh("ev"), Mtu.MTU_1024, 14, 7, 7, 12, 4096, RcPair.REMOTE_ALL,
                RcPair.REMOTE_ALL, 1)) {
            p.a.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED)
                    .sg(Sge.of(p.mrA, 0, 8)).rdma(p.mrB.addr() + 4096, p.mrB.rkey())); // one past the end
            assertThat(RcPair.poll(p.cqA, 1, DEADLINE).getFirst().status).isEqualTo(WcStatus.REM_ACCESS_ERR);
            AsyncEvent e = p.ctx.getAsyncEvent(DEADLINE);
            assertThat(e.type()).isEqualTo(AsyncEventType.QP_ACCESS_ERR);
            assertThat(e.qp()).isSameAs(p.b);
            e.ack();
        }
    }

    private static QueuePair qp(ProtectionDomain pd, CompletionQueue cq, SharedReceiveQueue srq) {
        return pd.createQp(new QpInitAttr().cq(cq).srq(srq).cap(new QpCap(16, 16, 1, 1, 0)));
    }

    private static void connect(Context ctx, QueuePair a, QueuePair b) {
        for (QueuePair[] qp : new QueuePair[][] {{a, b}, {b, a}}) {
            qp[0].modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(0));
            qp[0].modify(new QpAttr().state(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(qp[1].qpNum()).rqPsn(5)
                    .maxDestRdAtomic(1).minRnrTimer(1).ahAttr(AhAttr.roce(ctx.queryGid(1, 0), 0, 1)));
            qp[0].modify(new QpAttr().state(QpState.RTS).sqPsn(5).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(1));
        }
    }
}
