package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.time.Duration;
import org.jrdma.soft.wire.Bth;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpState;
import org.junit.jupiter.api.Test;

/**
 * RELIABILITY-SECURITY SEC-35, responder-resource abuse, forged from the peer's own address (the
 * worst case: source checks pass). 400 READ requests of 1 MiB each, far more than
 * max_dest_rd_atomic (1) outstanding: the responder keeps a fixed ring of max_dest_rd_atomic
 * entries and recycles the oldest (as rxe's check_resource does), streaming each reply from the
 * registered memory, so nothing is buffered per request and the heap does not grow; a newer READ
 * cuts the older reply short, which also bounds the amplification. Then a READ whose DMA length
 * is over 2^31 is refused with NAK invalid request and the responder goes to ERR.
 */
class ResponderAbuseTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int READ_REQUEST = 0x0C;
    private static final int MIB = 1 << 20;

    @Test
    void sec35ReadsBeyondMaxDestRdAtomicRecycleAFixedRingAndAnOversizedReadIsRefused() {
        try (RcPair p = new RcPair(FreshDevices.fresh("sec35"), Mtu.MTU_1024, 14, 7, 7, 1, MIB, RcPair.REMOTE_ALL,
                RcPair.REMOTE_ALL, 1)) {
            long heapBefore = heapAfterGc();
            long sentBefore = p.b.counters().get("sent_bytes");
            int psn = 0x10; // b's expected PSN
            int reads = 400;
            long attackerBytes = 0;
            for (int i = 0; i < reads; i++) {
                ByteBuffer req = read(p, psn, MIB);
                attackerBytes += req.capacity();
                Forge.fromPeer(p.hca(), req);
                psn = (psn + MIB / 1024) & 0xFFFFFF; // a READ takes one PSN per response packet
            }
            // the oversized READ comes last, at the PSN the 400 accepted READs leave b expecting
            Forge.fromPeer(p.hca(), read(p, psn, 0x80000001L));
            RcPair.await(() -> p.b.state() == QpState.ERR, WAIT, "b in ERR after the READ of 2^31 + 1 bytes");
            org.jrdma.verbs.AsyncEvent ev = p.ctx.getAsyncEvent(WAIT);
            assertThat(ev.type()).as("an invalid request, not an access error").isEqualTo(org.jrdma.verbs.AsyncEventType.QP_REQ_ERR);
            ev.ack();
            long heapAfter = heapAfterGc();
            long replied = p.b.counters().get("sent_bytes") - sentBefore;
            System.out.printf("SEC-35: %d forged 1 MiB READs (max_dest_rd_atomic 1): responder sent %d KiB for %d attacker bytes"
                            + " (amplification %.0fx, uncapped would be %.0fx); heap after GC %+d KiB%n",
                    reads, replied >> 10, attackerBytes, replied / (double) attackerBytes,
                    reads * (double) MIB / attackerBytes, (heapAfter - heapBefore) >> 10);
            assertThat(heapAfter - heapBefore).as("heap growth").isLessThan(8L << 20);
            assertThat(replied).as("the replies were cut short by newer READs").isLessThan((long) reads * MIB);
            assertThat(p.b.counters().get("sent_packets")).isPositive();
        }
    }

    private static ByteBuffer read(RcPair p, int psn, long length) {
        ByteBuffer pkt = Forge.packet(READ_REQUEST, p.b.qpNum(), psn, 0, 0);
        pkt.putLong(Bth.LENGTH, p.mrB.addr());
        pkt.putInt(Bth.LENGTH + 8, p.mrB.rkey());
        pkt.putInt(Bth.LENGTH + 12, (int) length);
        return pkt;
    }

    private static long heapAfterGc() {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            best = Math.min(best, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return best;
    }
}
