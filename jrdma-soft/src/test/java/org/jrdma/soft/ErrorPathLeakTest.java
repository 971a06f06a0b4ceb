package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.AsyncEvent;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpAttr;
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
 * RELIABILITY-SECURITY REL-29, error-path leak soak (rxe leaked on such paths: "Fix ref count
 * error in check_rkey()", "Fix memleak in rxe_mem_init_user"): many WRITEs with a bad rkey, each
 * failing both QPs (REM_ACCESS_ERR, QP_ACCESS_ERR event) and each followed by RESET and a fresh
 * connect of the same QPs; and many refused memory registrations. The heap after GC returns to
 * its baseline. CI runs 2000 and 20,000; {@code -Djrdma.errors.scale=50} runs 10^5 and 10^6.
 * (Aborted handshakes: bootstrap's AbortedHandshakeLeakTest.)
 */
class ErrorPathLeakTest {
    private static final int SCALE = Integer.getInteger("jrdma.errors.scale", 1);
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void rel29BadRkeyFailuresAndRefusedRegistrationsLeakNothing() {
        try (RcPair p = new RcPair(FreshDevices.fresh("rel29"), Mtu.MTU_1024, 14, 7, 7, 1, 4096, RcPair.REMOTE_ALL,
                RcPair.REMOTE_ALL, 1)) {
            for (int i = 0; i < 50; i++) {
                badRkeyRound(p, i); // warm-up
            }
            long base = heapAfterGc();
            int rounds = 2000 * SCALE;
            long t0 = System.nanoTime();
            for (int i = 0; i < rounds; i++) {
                badRkeyRound(p, i);
            }
            double badRkeySeconds = (System.nanoTime() - t0) / 1e9;
            int registrations = 20_000 * SCALE;
            for (int i = 0; i < registrations; i++) {
                // REMOTE_WRITE without LOCAL_WRITE is refused (rdma-core test_reg_mr_bad_flags)
                assertThatThrownBy(() -> p.pd.registerMemory(p.bufA, AccessFlags.REMOTE_WRITE)).isInstanceOf(VerbsException.class);
            }
            long after = heapAfterGc();
            System.out.printf("REL-29: %d bad-rkey failures (each: both QPs to ERR, REM_ACCESS_ERR, an async event, RESET and"
                            + " reconnect) in %.1f s, %d refused registrations; heap after GC %d -> %d KiB (%+d KiB)%n",
                    rounds, badRkeySeconds, registrations, base >> 10, after >> 10, (after - base) >> 10);
            assertThat(after - base).isLessThan(4L << 20);
            assertThat(p.hca().qps()).hasSize(2);
        }
    }

    /** a WRITEs with a bad rkey: a gets REM_ACCESS_ERR, b raises QP_ACCESS_ERR; both go through RESET back to RTS. */
    private static void badRkeyRound(RcPair p, int i) {
        p.a.postSend(new SendWorkRequest().wrId(i).opcode(WrOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED)
                .sg(Sge.of(p.mrA, 0, 64)).rdma(p.mrB.addr(), p.mrB.rkey() ^ 0x5A5A5A5A));
        assertThat(RcPair.poll(p.cqA, 1, WAIT)).singleElement().satisfies(wc -> assertThat(wc.status).isEqualTo(WcStatus.REM_ACCESS_ERR));
        RcPair.await(() -> p.b.state() == QpState.ERR, WAIT, "b in ERR");
        AsyncEvent ev = p.ctx.getAsyncEvent(WAIT);
        ev.ack();
        int psn = (i * 7919) & 0xFFFF;
        reconnect(p, p.a, p.b.qpNum(), psn, psn + 1);
        reconnect(p, p.b, p.a.qpNum(), psn + 1, psn);
    }

    private static void reconnect(RcPair p, QueuePair qp, int remote, int sqPsn, int rqPsn) {
        qp.modify(new QpAttr().state(QpState.RESET));
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(RcPair.REMOTE_ALL));
        qp.modify(new QpAttr().state(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(remote).rqPsn(rqPsn).maxDestRdAtomic(1)
                .minRnrTimer(1).ahAttr(AhAttr.roce(p.ctx.queryGid(1, 0), 0, 1)));
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(sqPsn).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(1));
    }

    private static long heapAfterGc() {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            best = Math.min(best, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return best;
    }
}
