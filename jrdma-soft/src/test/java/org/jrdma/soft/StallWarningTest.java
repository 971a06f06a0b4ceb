package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.jrdma.soft.engine.SoftHca;
import org.jrdma.soft.engine.ThreadingMode;
import org.jrdma.soft.transport.StallWarnings;
import org.jrdma.testkit.CapturedLog;
import org.jrdma.testkit.Loopback.Endpoint;
import org.jrdma.testkit.Loopback;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/**
 * Issue 12 item 8: a QP that retries without progress says so, once per episode. The README's
 * seed program, with the server written "the same" as the client, posts no receive on either
 * side; RNR NAKs flowed (6,000+ in 8 s), rnr_retry 7 retried for ever, and nothing was said.
 * Two soft devices are stepped by the test on one manual clock ({@link ThreadingMode#INVOKER}),
 * so "a second without progress" takes no second of wall time and nothing depends on timing.
 */
class StallWarningTest {
    private static final long STEP_NANOS = 100_000L; // 0.1 ms of the devices' clock per pass
    private static final String LOGGER = "org.jrdma.soft.stalls";

    private final AtomicLong clock = new AtomicLong(1_000_000_000L);

    @Test
    void aPeerThatPostsNoReceiveGetsOneWarningPerEpisodeNamingTheCauseAndTheCounter() {
        try (Pair p = new Pair(Loopback.Options.defaults().withRnr(7, 12)); CapturedLog log = CapturedLog.of(LOGGER)) {
            String a = "QP 0x" + hex(p.a.qp.qpNum());
            send(p.a, 1);
            p.drive(3 * StallWarnings.WARN_AFTER_NANOS); // three seconds of RNR NAKs, 0.64 ms apart
            assertThat(log.warnings(a)).as("one warning for the episode").singleElement().asString()
                    .contains("RNR NAKs from QP 0x" + hex(p.b.qp.qpNum()), "rnr_naks_rcvd=", "no receive posted",
                            "rnr_retry 7 retries for ever");
            assertThat(p.a.qp.counters().get("rnr_naks_rcvd")).isGreaterThan(100L);
            assertThat(p.completions(p.a.sendCq)).as("still no completion: rnr_retry 7").isEmpty();

            p.b.qp.postRecv(new RecvWorkRequest().wrId(2).sg(Sge.of(p.b.recvMr, 0, 64)));
            p.driveUntil(() -> !p.completions(p.a.sendCq).isEmpty());
            p.drive(2 * StallWarnings.WARN_AFTER_NANOS);
            assertThat(log.warnings(a)).as("progress ended the episode quietly").hasSize(1);

            send(p.a, 3); // no receive again: a new episode, a new warning
            p.drive(2 * StallWarnings.WARN_AFTER_NANOS);
            assertThat(log.warnings(a)).hasSize(2);
            assertThat(log.warnings("QP 0x" + hex(p.b.qp.qpNum()) + " has")).as("the responder is not stuck").isEmpty();
        }
    }

    @Test
    void aPeerThatIsGoneGetsOneWarningBeforeTheRetriesRunOut() {
        // timeout 18: 4.096 µs × 2^18 ≈ 1.07 s per try, 8 tries before RETRY_EXC_ERR
        try (Pair p = new Pair(Loopback.Options.defaults().withRetry(18, 7)); CapturedLog log = CapturedLog.of(LOGGER)) {
            String a = "QP 0x" + hex(p.a.qp.qpNum());
            p.b.qp.modify(new QpAttr().state(QpState.ERR)); // the peer's QP is gone: it drops what comes
            send(p.a, 1);
            List<WorkCompletion> done = new ArrayList<>();
            p.driveUntil(() -> done.addAll(p.completions(p.a.sendCq)) && !done.isEmpty());
            assertThat(done).singleElement().satisfies(wc -> assertThat(wc.status).isEqualTo(WcStatus.RETRY_EXC_ERR));
            assertThat(log.warnings(a)).singleElement().asString()
                    .contains("timeouts waiting for QP 0x" + hex(p.b.qp.qpNum()), "retry_timeouts=", "retransmitted_packets=",
                            "gone or unreachable", "RETRY_EXC_ERR");
        }
    }

    @Test
    void aNormalRunAndAShortRnrWaitSayNothing() {
        try (Pair p = new Pair(Loopback.Options.defaults().withRnr(7, 12).withRetry(14, 7));
                CapturedLog log = CapturedLog.of(LOGGER)) {
            for (int i = 0; i < 200; i++) {
                p.b.qp.postRecv(new RecvWorkRequest().wrId(i).sg(Sge.of(p.b.recvMr, 0, 64)));
                send(p.a, 1000 + i);
                p.driveUntil(() -> !p.completions(p.a.sendCq).isEmpty());
            }
            send(p.a, 1); // a late receive: RNR NAKs for half a second, then progress
            p.drive(StallWarnings.WARN_AFTER_NANOS / 2);
            assertThat(p.a.qp.counters().get("rnr_naks_rcvd")).isPositive();
            p.b.qp.postRecv(new RecvWorkRequest().wrId(2).sg(Sge.of(p.b.recvMr, 0, 64)));
            p.driveUntil(() -> !p.completions(p.a.sendCq).isEmpty());
            p.drive(2 * StallWarnings.WARN_AFTER_NANOS);
            assertThat(log.warnings()).isEmpty();
        }
    }

    private static void send(Endpoint e, long wrId) {
        e.qp.postSend(new SendWorkRequest().wrId(wrId).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED)
                .sg(Sge.of(e.sendMr, 0, 64)));
    }

    private static String hex(int qpn) {
        return String.format("%06x", qpn);
    }

    /** Two stepped devices on the test's clock, one QP each, connected. */
    private final class Pair implements AutoCloseable {
        final SoftHca hcaA;
        final SoftHca hcaB;
        final Context ctxA;
        final Context ctxB;
        final Loopback loopback;
        final Endpoint a;
        final Endpoint b;

        Pair(Loopback.Options o) {
            SoftOptions options = SoftOptions.defaults().threading(ThreadingMode.INVOKER).clock(clock::get).privateCounters();
            ctxA = FreshDevices.fresh("stall_a", options).open();
            ctxB = FreshDevices.fresh("stall_b", options).open();
            hcaA = ((SoftContext) ctxA).hca();
            hcaB = ((SoftContext) ctxB).hca();
            loopback = Loopback.open(ctxA, ctxB, 1, 0, o);
            a = loopback.a();
            b = loopback.b();
        }

        /** Steps both devices through {@code nanos} of their clock. */
        void drive(long nanos) {
            for (long t = 0; t < nanos; t += STEP_NANOS) {
                step();
            }
        }

        /** Steps both devices until {@code done}, for at most a minute of their clock. */
        void driveUntil(java.util.function.BooleanSupplier done) {
            for (long t = 0; !done.getAsBoolean(); t += STEP_NANOS) {
                if (t > 60_000_000_000L) {
                    throw new AssertionError("nothing happened in 60 s of the devices' clock");
                }
                step();
            }
        }

        private void step() {
            clock.addAndGet(STEP_NANOS);
            hcaA.doWork();
            hcaB.doWork();
        }

        List<WorkCompletion> completions(CompletionQueue cq) {
            List<WorkCompletion> got = new ArrayList<>();
            WorkCompletion[] one = {new WorkCompletion()};
            while (cq.poll(one) == 1) {
                WorkCompletion c = new WorkCompletion();
                c.copyFrom(one[0]);
                got.add(c);
            }
            return got;
        }

        @Override
        public void close() {
            loopback.close();
            ctxA.close();
            ctxB.close();
        }
    }
}
