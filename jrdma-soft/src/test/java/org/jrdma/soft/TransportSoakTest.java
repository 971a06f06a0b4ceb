package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jrdma.soft.net.Impairment;
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
 * RELIABILITY-SECURITY REL-21 (spurious retransmissions on a lossless loopback), REL-22
 * (the unacknowledged-PSN window), REL-23 (PSN wrap under loss) and REL-31 (soak with loss and
 * reordering). CI runs them for a few seconds; {@code -Djrdma.soak.seconds=60} (REL-21) or
 * {@code =300} (REL-31) runs the catalogue's durations. Figures are printed; the bounds
 * asserted are generous (a shared 2-core machine).
 */
class TransportSoakTest {
    private static final double SECONDS = Double.parseDouble(System.getProperty("jrdma.soak.seconds", "3"));
    private static final Duration WAIT = Duration.ofSeconds(30);

    /** REL-21: WRITEs of 64 KiB, 8 in flight, as fast as they go: the retransmit timer (67 ms) should never fire. */
    @Test
    void rel21SaturatingLoadOnALosslessLoopbackRetransmitsNothing() {
        try (Pair p = new Pair(FreshDevices.fresh("rel21"), 0x10, 14, 7, 1 << 20)) {
            long t0 = System.nanoTime();
            long end = t0 + (long) (SECONDS * 1e9);
            long posted = 0;
            long done = 0;
            WorkCompletion[] wc = new WorkCompletion[16];
            for (int i = 0; i < wc.length; i++) {
                wc[i] = new WorkCompletion();
            }
            while (System.nanoTime() < end || done < posted) {
                if (posted - done < 8 && System.nanoTime() < end) {
                    p.a.postSend(write(posted++, p, (posted % 16) * 65536, 65536));
                }
                int k = p.cqA.poll(wc);
                for (int i = 0; i < k; i++) {
                    assertThat(wc[i].status).isEqualTo(WcStatus.SUCCESS);
                }
                done += k;
            }
            double s = (System.nanoTime() - t0) / 1e9;
            long sent = p.a.counters().get("sent_packets");
            long retx = p.a.counters().get("retransmitted_packets");
            System.out.printf("REL-21: %d WRITEs of 64 KiB in %.1f s (%.0f MB/s), %d packets, %d retransmitted = %.2f/s"
                            + " after %d timer expiries (rxe before its fix: ~40/s)%n", done, s, done * 65536 / s / 1e6, sent, retx,
                    retx / s, p.a.counters().get("retry_timeouts"));
            assertThat(retx).isLessThanOrEqualTo(Math.max(2, sent / 1000));
        }
    }

    /**
     * REL-22: with every ACK lost, the requester sends exactly {@link SoftLimits#MAX_UNACKED_PSNS}
     * new PSNs of a 1 MiB WRITE and then only retransmits; once ACKs flow again the WRITE
     * completes byte for byte.
     */
    @Test
    void rel22TheSenderStopsAtTheUnackedPsnWindowAndResumes() {
        AtomicBoolean dropAcks = new AtomicBoolean(true);
        java.util.Set<Integer> writePsns = java.util.concurrent.ConcurrentHashMap.newKeySet();
        FilteringDatagrams[] made = new FilteringDatagrams[1];
        SoftDevice dev = FreshDevices.fresh("rel22", SoftOptions.defaults().datagrams(FilteringDatagrams.factory((i, opcode, psn) -> {
            if (opcode >= 0x06 && opcode <= 0x0B && dropAcks.get()) {
                writePsns.add(psn); // a retransmission re-sends a PSN: the set counts new ones
            }
            return opcode == 0x11 && dropAcks.get();
        }, made)));
        try (Pair p = new Pair(dev, 0x10, 16, 7, 2 << 20)) { // 268 ms per try: ~2 s before retry_cnt runs out
            fill(p.bufA, 22);
            int len = 1 << 20;
            p.a.postSend(write(1, p, 0, len));
            // the first timer expiry: everything a could send is out, so the set is complete (and
            // no retransmission can add to it: it re-sends the same PSNs)
            RcPair.await(() -> p.a.counters().get("retransmitted_packets") > 0, WAIT, "the first retransmission");
            assertThat(writePsns).as("distinct PSNs sent with nothing acknowledged").hasSize(SoftLimits.MAX_UNACKED_PSNS);
            dropAcks.set(false);
            List<WorkCompletion> wc = RcPair.poll(p.cqA, 1, WAIT);
            assertThat(wc).singleElement().satisfies(c -> assertThat(c.status).isEqualTo(WcStatus.SUCCESS));
            assertThat(p.bufB.asSlice(0, len).mismatch(p.bufA.asSlice(0, len))).isEqualTo(-1);
            System.out.printf("REL-22: window %d PSNs; %d ACKs lost on purpose; 1 MiB WRITE completed after %d retransmissions%n",
                    SoftLimits.MAX_UNACKED_PSNS, made[0].dropped.get(), p.a.counters().get("retransmitted_packets"));
        }
    }

    /** REL-23: start at PSN 0xFFFFF0 and move 1 MiB across the 2^24 wrap with 1% loss: byte-exact. */
    @Test
    void rel23PsnWrapWithLossKeepsEveryByte() {
        Impairment loss = Impairment.parse("loss=1%,seed=23");
        try (Pair p = new Pair(FreshDevices.fresh("rel23", SoftOptions.defaults().impairment(loss)), 0xFFFFF0, 10, 7, 2 << 20)) {
            fill(p.bufA, 23);
            int len = 1 << 20;
            for (int i = 0; i < 4; i++) { // 4 × 256 KiB WRITEs, then a SEND: ~1030 PSNs, the wrap early on
                p.a.postSend(write(i, p, i * (len / 4L), len / 4));
            }
            p.b.postRecv(new RecvWorkRequest().wrId(9).sg(Sge.of(p.mrB, len, 4096)));
            p.a.postSend(new SendWorkRequest().wrId(4).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED).sg(Sge.of(p.mrA, len, 4096)));
            List<WorkCompletion> wc = RcPair.poll(p.cqA, 5, WAIT);
            assertThat(wc).hasSize(5).allSatisfy(c -> assertThat(c.status).isEqualTo(WcStatus.SUCCESS));
            assertThat(RcPair.poll(p.cqB, 1, WAIT)).singleElement().satisfies(c -> assertThat(c.byteLen).isEqualTo(4096));
            assertThat(p.bufB.asSlice(0, len + 4096).mismatch(p.bufA.asSlice(0, len + 4096))).isEqualTo(-1);
            assertThat(p.a.query().sqPsn()).as("a's next PSN wrapped past 0").isLessThan(0x1000);
            System.out.printf("REL-23: 1 MiB + 4 KiB across the PSN wrap at 1%% loss: %d retransmitted, byte-exact%n",
                    p.a.counters().get("retransmitted_packets"));
        }
    }

    /**
     * REL-31: both directions busy — a WRITEs 16 KiB blocks to b, b SENDs 1 KiB messages to a —
     * at 1% loss and 0.1% reordering; the longest time without any completion stays under twice
     * the retry budget ((retry_cnt + 1) × 4.096 µs × 2^timeout), and no WR fails.
     */
    @Test
    void rel31BidirectionalSoakWithLossAndReorderNeverStalls() {
        Impairment bad = Impairment.parse("loss=1%,reorder=0.1%,seed=31");
        int timeout = 14;
        int retry = 7;
        double budgetMs = (retry + 1) * 4.096e-3 * (1 << timeout);
        try (Pair p = new Pair(FreshDevices.fresh("rel31", SoftOptions.defaults().impairment(bad)), 0x31, timeout, retry, 1 << 20)) {
            long t0 = System.nanoTime();
            long end = t0 + (long) (SECONDS * 1e9);
            long last = t0;
            long maxStall = 0;
            long writes = 0;
            long writesDone = 0;
            long sends = 0;
            long sendsDone = 0;
            long recvsDone = 0;
            WorkCompletion[] wc = new WorkCompletion[16];
            for (int i = 0; i < wc.length; i++) {
                wc[i] = new WorkCompletion();
            }
            for (int i = 0; i < 16; i++) {
                p.a.postRecv(new RecvWorkRequest().wrId(i).sg(Sge.of(p.mrA, (512 << 10) + i * 1024L, 1024)));
            }
            long deadline = end + Duration.ofSeconds(60).toNanos();
            while ((System.nanoTime() < end || writesDone < writes || sendsDone < sends) && System.nanoTime() < deadline) {
                boolean open = System.nanoTime() < end;
                if (open && writes - writesDone < 4) {
                    p.a.postSend(write(writes, p, (writes % 16) * 16384, 16384));
                    writes++;
                }
                if (open && sends - recvsDone < 8) {
                    p.b.postSend(new SendWorkRequest().wrId(sends++).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED)
                            .sg(Sge.of(p.mrB, 768 << 10, 1024)));
                }
                int k = p.cqA.poll(wc);
                for (int i = 0; i < k; i++) {
                    assertThat(wc[i].status).as("a's %s %d", wc[i].opcode, wc[i].wrId).isEqualTo(WcStatus.SUCCESS);
                    if (wc[i].opcode == org.jrdma.verbs.WcOpcode.RECV) {
                        recvsDone++;
                        p.a.postRecv(new RecvWorkRequest().wrId(wc[i].wrId).sg(Sge.of(p.mrA, (512 << 10) + wc[i].wrId * 1024, 1024)));
                    } else {
                        writesDone++;
                    }
                }
                int m = p.cqB.poll(wc);
                for (int i = 0; i < m; i++) {
                    assertThat(wc[i].status).as("b's SEND %d", wc[i].wrId).isEqualTo(WcStatus.SUCCESS);
                }
                sendsDone += m;
                long now = System.nanoTime();
                if (k + m > 0) {
                    maxStall = Math.max(maxStall, now - last);
                    last = now;
                }
            }
            double s = (System.nanoTime() - t0) / 1e9;
            System.out.printf("REL-31: %.1f s at 1%% loss + 0.1%% reorder: %d WRITEs of 16 KiB a->b, %d SENDs of 1 KiB b->a;"
                            + " retransmitted a=%d b=%d; longest stall %.1f ms (bound 2 x retry budget = %.0f ms)%n",
                    s, writesDone, sendsDone, p.a.counters().get("retransmitted_packets"), p.b.counters().get("retransmitted_packets"),
                    maxStall / 1e6, 2 * budgetMs);
            assertThat(writesDone).isEqualTo(writes);
            assertThat(sendsDone).isEqualTo(sends);
            assertThat(maxStall / 1e6).isLessThan(2 * budgetMs);
            assertThat(p.a.state()).isEqualTo(QpState.RTS);
            assertThat(p.b.state()).isEqualTo(QpState.RTS);
        }
    }

    private static SendWorkRequest write(long wrId, Pair p, long offset, int len) {
        return new SendWorkRequest().wrId(wrId).opcode(WrOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED)
                .sg(Sge.of(p.mrA, offset, len)).rdma(p.mrB.addr() + offset, p.mrB.rkey());
    }

    private static void fill(MemorySegment seg, long seed) {
        java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
        for (long i = 0; i < seg.byteSize(); i += 8) {
            seg.set(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, i, r.nextLong());
        }
    }

    /** Two RC QPs on one device, a's send PSN (and b's expected PSN) starting at {@code psn}, the other way at psn + 0x1000. */
    private static final class Pair implements AutoCloseable {
        final Context ctx;
        final Arena arena = Arena.ofShared();
        final CompletionQueue cqA;
        final CompletionQueue cqB;
        final QueuePair a;
        final QueuePair b;
        final MemorySegment bufA;
        final MemorySegment bufB;
        final MemoryRegion mrA;
        final MemoryRegion mrB;

        Pair(SoftDevice dev, int psn, int timeout, int retry, int bytes) {
            ctx = dev.open();
            ProtectionDomain pd = ctx.allocPd();
            cqA = ctx.createCq(256, null);
            cqB = ctx.createCq(256, null);
            a = pd.createQp(new QpInitAttr().cq(cqA).cap(new QpCap(64, 64, 1, 1, 0)));
            b = pd.createQp(new QpInitAttr().cq(cqB).cap(new QpCap(64, 64, 1, 1, 0)));
            bufA = arena.allocate(bytes, 64);
            bufB = arena.allocate(bytes, 64);
            int access = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE;
            mrA = pd.registerMemory(bufA, access);
            mrB = pd.registerMemory(bufB, access);
            int other = (psn + 0x1000) & 0xFFFFFF;
            connect(a, b.qpNum(), psn, other, timeout, retry);
            connect(b, a.qpNum(), other, psn, timeout, retry);
        }

        private void connect(QueuePair qp, int remote, int sqPsn, int rqPsn, int timeout, int retry) {
            qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(AccessFlags.REMOTE_WRITE));
            qp.modify(new QpAttr().state(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(remote).rqPsn(rqPsn).maxDestRdAtomic(1)
                    .minRnrTimer(1).ahAttr(AhAttr.roce(ctx.queryGid(1, 0), 0, 1)));
            qp.modify(new QpAttr().state(QpState.RTS).sqPsn(sqPsn).timeout(timeout).retryCnt(retry).rnrRetry(7).maxRdAtomic(1));
        }

        @Override
        public void close() {
            ctx.close();
            arena.close();
        }
    }
}
