package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AhAttr;
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
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/**
 * REL-14: timeout 0 means no retransmit timer. The soft provider refuses it with EINVAL unless
 * it is asked for explicitly ({@link QpAttr#timeoutInfinite()}), and then warns; with it, a SEND
 * to a peer that never answers (held in INIT) stays outstanding — no RETRY_EXC_ERR — until the
 * QP is moved to ERR, which flushes it. (RetrySuite#timeoutZeroIsRefusedOrNeverTimesOut checks
 * the refusal through the portable API.)
 */
class NoRetransmitTimerTest {
    @Test
    void rel14TimeoutZeroIsRefusedUnlessAskedForAndThenNeverTimesOut() {
        SoftDevice dev = FreshDevices.fresh("notimer");
        try (Arena arena = Arena.ofShared(); Context ctx = dev.open()) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(16, null);
            QueuePair a = pd.createQp(new QpInitAttr().cq(cq).cap(new QpCap(8, 8, 1, 1, 0)));
            QueuePair b = pd.createQp(new QpInitAttr().cq(cq).cap(new QpCap(8, 8, 1, 1, 0)));
            MemorySegment buf = arena.allocate(64);
            MemoryRegion mr = pd.registerMemory(buf, AccessFlags.LOCAL_WRITE);
            b.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(0)); // never answers
            a.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(0));
            a.modify(new QpAttr().state(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(b.qpNum()).rqPsn(0)
                    .maxDestRdAtomic(0).minRnrTimer(12).ahAttr(AhAttr.roce(ctx.queryGid(1, 0), 0, 1)));

            assertThatThrownBy(() -> a.modify(rts().timeout(0)))
                    .isInstanceOfSatisfying(VerbsException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EINVAL))
                    .hasMessageContaining("TIMEOUT 0").hasMessageContaining("timeoutInfinite");
            assertThat(a.query().qpState()).as("a refused modify changes nothing").isEqualTo(QpState.RTR);

            a.modify(rts().timeoutInfinite());
            assertThat(a.query().timeout()).isZero();
            a.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED).sg(Sge.of(mr, 0, 64)));
            // Retry budget at timeout 1 would be 8 × 8 µs: nothing may complete in 300 ms.
            assertThat(RcPair.poll(cq, 1, Duration.ofMillis(300))).as("no retransmit timer, no RETRY_EXC_ERR").isEmpty();
            assertThat(a.query().qpState()).isEqualTo(QpState.RTS);

            a.modify(new QpAttr().state(QpState.ERR));
            assertThat(RcPair.poll(cq, 1, Duration.ofSeconds(10))).singleElement()
                    .satisfies(wc -> assertThat(wc.status).isEqualTo(WcStatus.WR_FLUSH_ERR));
        }
    }

    private static QpAttr rts() {
        return new QpAttr().state(QpState.RTS).sqPsn(0).retryCnt(7).rnrRetry(7).maxRdAtomic(0);
    }
}
