package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.jrdma.soft.wire.DropReason;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.junit.jupiter.api.Test;

/**
 * RC's guarantee under deterministic loss: every message arrives once and intact, or the
 * sender gets an error completion — a lost packet never hangs a QP (issue 2: "a lost packet
 * must not hang the demo forever"; the full matrix comes with the impairment layer).
 */
class RcRecoveryTest {
    private static final Duration DEADLINE = Duration.ofSeconds(20);
    private static final int SEND_MIDDLE = 0x01;
    private static final int ACK = 0x11;

    private static RcPair pair(FilteringDatagrams.Filter filter, FilteringDatagrams[] made, int timeout, int retry,
            int rnrRetry) {
        SoftDevice dev = FreshDevices.fresh("loss", SoftOptions.defaults().datagrams(FilteringDatagrams.factory(filter, made)));
        return new RcPair(dev, Mtu.MTU_1024, timeout, retry, rnrRetry, 1, 1 << 16, RcPair.REMOTE_ALL, RcPair.REMOTE_ALL, 2);
    }

    private static final int READ_RESPONSE_MIDDLE = 0x0E;
    private static final int ATOMIC_ACK = 0x12;
    private static final int WRITE_MIDDLE = 0x07;

    /** Drops the {@code n}-th (0-based) packet with {@code opcode}, once. */
    private static FilteringDatagrams.Filter dropOnce(int opcode, int n) {
        int[] seen = {0};
        return (i, op, psn) -> op == opcode && seen[0]++ == n;
    }

    /**
     * REL-06, REL-09 (READ), REL-11: a lost middle READ response makes the requester re-issue the
     * READ from the missing offset; the responder replays it from its resource (re-reading memory).
     */
    @Test
    void aLostReadResponseIsAskedForAgainFromTheGapOnly() {
        FilteringDatagrams[] made = new FilteringDatagrams[1];
        try (RcPair p = pair(dropOnce(READ_RESPONSE_MIDDLE, 5), made, 14, 7, 7)) {
            p.fill(p.bufB, 21);
            int len = 20 * 1024 + 17;
            p.a.postSend(new org.jrdma.verbs.SendWorkRequest().wrId(1).opcode(org.jrdma.verbs.WrOpcode.RDMA_READ)
                    .flags(org.jrdma.verbs.SendFlags.SIGNALED).sg(org.jrdma.verbs.Sge.of(p.mrA, 0, len))
                    .rdma(p.mrB.addr(), p.mrB.rkey()));
            assertThat(RcPair.poll(p.cqA, 1, DEADLINE)).singleElement()
                    .satisfies(wc -> assertThat(wc.status).isEqualTo(WcStatus.SUCCESS));
            assertThat(p.bufA.asSlice(0, len).mismatch(p.bufB.asSlice(0, len))).isEqualTo(-1);
            var c = p.hca().countersSnapshot();
            assertThat(made[0].dropped.get()).isEqualTo(1);
            assertThat(c.get("retry_timeouts")).as("recovered at the gap, not by the timer").isZero();
            assertThat(c.get("duplicate_requests")).as("the resumed READ was a duplicate the responder replayed").isEqualTo(1);
        }
    }

    /** REL-07: the retransmitted atomic gets the saved original value; the word is added to once. */
    @Test
    void aLostAtomicAckIsAnsweredFromTheSavedValueWithoutAddingTwice() {
        FilteringDatagrams[] made = new FilteringDatagrams[1];
        try (RcPair p = pair(dropOnce(ATOMIC_ACK, 2), made, 8, 7, 7)) {
            for (int i = 0; i < 5; i++) {
                p.a.postSend(new org.jrdma.verbs.SendWorkRequest().wrId(i).opcode(org.jrdma.verbs.WrOpcode.ATOMIC_FETCH_AND_ADD)
                        .flags(org.jrdma.verbs.SendFlags.SIGNALED).sg(org.jrdma.verbs.Sge.of(p.mrA, 8L * i, 8))
                        .atomic(p.mrB.addr(), p.mrB.rkey(), 1, 0));
            }
            assertThat(RcPair.poll(p.cqA, 5, DEADLINE)).hasSize(5).allSatisfy(wc -> assertThat(wc.status).isEqualTo(WcStatus.SUCCESS));
            assertThat(p.bufB.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0)).as("added exactly 5 times").isEqualTo(5L);
            for (int i = 0; i < 5; i++) {
                assertThat(p.bufA.get(java.lang.foreign.ValueLayout.JAVA_LONG, 8L * i)).isEqualTo(i);
            }
            assertThat(p.hca().countersSnapshot().get("duplicate_requests")).isGreaterThanOrEqualTo(1);
        }
    }

    /** REL-09 (WRITE): go-back-N from the lost packet, with the right va bookkeeping; byte-exact. */
    @Test
    void aLostWritePacketIsResentAndTheWriteLandsOnce() {
        FilteringDatagrams[] made = new FilteringDatagrams[1];
        try (RcPair p = pair(dropOnce(WRITE_MIDDLE, 3), made, 14, 7, 7)) {
            p.fill(p.bufA, 22);
            int len = 10 * 1024;
            p.a.postSend(new org.jrdma.verbs.SendWorkRequest().wrId(1).opcode(org.jrdma.verbs.WrOpcode.RDMA_WRITE)
                    .flags(org.jrdma.verbs.SendFlags.SIGNALED).sg(org.jrdma.verbs.Sge.of(p.mrA, 0, len))
                    .rdma(p.mrB.addr() + 512, p.mrB.rkey()));
            assertThat(RcPair.poll(p.cqA, 1, DEADLINE)).singleElement()
                    .satisfies(wc -> assertThat(wc.status).isEqualTo(WcStatus.SUCCESS));
            assertThat(p.bufB.asSlice(512, len).mismatch(p.bufA.asSlice(0, len))).isEqualTo(-1);
            assertThat(p.hca().countersSnapshot().get("seq_naks_rcvd")).isEqualTo(1);
        }
    }

    /** REL-09 (SEND), REL-08: one sequence NAK for the gap, go-back-N from the lost packet. */
    @Test
    void aLostMiddlePacketIsResentFromThatPacketAfterOneSequenceNak() {
        FilteringDatagrams[] made = new FilteringDatagrams[1];
        boolean[] once = {false};
        try (RcPair p = pair((i, op, psn) -> {
            if (op == SEND_MIDDLE && !once[0]) {
                once[0] = true;
                return true;
            }
            return false;
        }, made, 14, 7, 7)) {
            p.fill(p.bufA, 1);
            p.postRecv(5, 0, 8000);
            p.send(6, 0, 8000); // 8 packets at MTU 1024; the first MIDDLE is lost

            List<WorkCompletion> sent = RcPair.poll(p.cqA, 1, DEADLINE);
            List<WorkCompletion> recv = RcPair.poll(p.cqB, 1, DEADLINE);
            assertThat(sent).singleElement().satisfies(wc -> assertThat(wc.status).isEqualTo(WcStatus.SUCCESS));
            assertThat(recv).singleElement().satisfies(wc -> {
                assertThat(wc.status).isEqualTo(WcStatus.SUCCESS);
                assertThat(wc.byteLen).isEqualTo(8000);
            });
            assertThat(p.bufB.asSlice(0, 8000).mismatch(p.bufA.asSlice(0, 8000))).isEqualTo(-1);
            var counters = p.hca().countersSnapshot();
            assertThat(made[0].dropped.get()).isEqualTo(1);
            // Packets after the gap were out of sequence: one NAK, then go-back-N from the gap
            // (not from the start of the message, not after a timeout).
            assertThat(counters.get("seq_naks_sent")).isEqualTo(1);
            assertThat(counters.get("seq_naks_rcvd")).isEqualTo(1);
            assertThat(counters.get("retransmitted_packets")).isBetween(1L, 7L);
            assertThat(counters.get("retry_timeouts")).isZero();
        }
    }

    /** REL-05, REL-10: a lost ACK; the retransmitted SEND is a duplicate, re-ACKed, not executed again. */
    @Test
    void aLostAckIsRecoveredByTheTimerAndTheDuplicateIsReAckedNotReExecuted() {
        FilteringDatagrams[] made = new FilteringDatagrams[1];
        boolean[] once = {false};
        try (RcPair p = pair((i, op, psn) -> {
            if (op == ACK && !once[0]) {
                once[0] = true;
                return true;
            }
            return false;
        }, made, 8, 7, 7)) { // timeout 8: ~1 ms
            p.fill(p.bufA, 2);
            p.postRecv(1, 0, 100);
            p.postRecv(2, 100, 100);
            p.send(10, 0, 100);

            assertThat(RcPair.poll(p.cqA, 1, DEADLINE)).singleElement()
                    .satisfies(wc -> assertThat(wc.status).isEqualTo(WcStatus.SUCCESS));
            // Exactly one receive consumed: the retransmitted SEND was a duplicate.
            assertThat(RcPair.poll(p.cqB, 2, Duration.ofMillis(300))).hasSize(1);
            var counters = p.hca().countersSnapshot();
            assertThat(counters.get("retry_timeouts")).isGreaterThanOrEqualTo(1);
            assertThat(counters.get("duplicate_requests")).isGreaterThanOrEqualTo(1);
        }
    }

    /** REL-12: blackholed peer: RETRY_EXC_ERR for the head WR, WR_FLUSH_ERR for the rest (unsignaled too). */
    @Test
    void aDeadPeerEndsInRetryExceededAndFlushesTheRest() {
        FilteringDatagrams[] made = new FilteringDatagrams[1];
        try (RcPair p = pair((i, op, psn) -> op != ACK, made, 8, 2, 7)) { // every request is lost
            p.postRecv(1, 0, 100);
            p.send(1, 0, 10);
            p.send(2, 0, 10, 0); // unsignaled: still completes, with an error
            p.send(3, 0, 10);

            List<WorkCompletion> wcs = RcPair.poll(p.cqA, 3, DEADLINE);
            assertThat(wcs).extracting(wc -> wc.wrId).containsExactly(1L, 2L, 3L);
            assertThat(wcs).extracting(wc -> wc.status)
                    .containsExactly(WcStatus.RETRY_EXC_ERR, WcStatus.WR_FLUSH_ERR, WcStatus.WR_FLUSH_ERR);
            assertThat(p.a.state()).isEqualTo(QpState.ERR);
            // retry_cnt 2: the first try and 2 retries, each after a local ACK timeout.
            assertThat(p.hca().countersSnapshot().get("retry_timeouts")).isEqualTo(3);
        }
    }

    @Test
    void noReceivePostedMeansRnrNakAndTheSendCompletesOnceOneIs() {
        FilteringDatagrams[] made = new FilteringDatagrams[1];
        try (RcPair p = pair((i, op, psn) -> false, made, 14, 7, 7)) {
            p.fill(p.bufA, 3);
            p.send(1, 0, 300);
            RcPair.await(() -> p.hca().countersSnapshot().get("rnr_naks_rcvd") >= 2, DEADLINE, "two RNR NAKs");
            assertThat(RcPair.poll(p.cqA, 1, Duration.ofMillis(1))).isEmpty();

            p.postRecv(7, 0, 300);
            assertThat(RcPair.poll(p.cqA, 1, DEADLINE)).singleElement()
                    .satisfies(wc -> assertThat(wc.status).isEqualTo(WcStatus.SUCCESS));
            assertThat(RcPair.poll(p.cqB, 1, DEADLINE)).singleElement().satisfies(wc -> assertThat(wc.wrId).isEqualTo(7));
            assertThat(p.bufB.asSlice(0, 300).mismatch(p.bufA.asSlice(0, 300))).isEqualTo(-1);
        }
    }

    @Test
    void rnrRetryZeroFailsWithRnrRetryExceeded() {
        FilteringDatagrams[] made = new FilteringDatagrams[1];
        try (RcPair p = pair((i, op, psn) -> false, made, 14, 7, 0)) {
            p.send(1, 0, 10);
            assertThat(RcPair.poll(p.cqA, 1, DEADLINE)).singleElement()
                    .satisfies(wc -> assertThat(wc.status).isEqualTo(WcStatus.RNR_RETRY_EXC_ERR));
            assertThat(p.a.state()).isEqualTo(QpState.ERR);
        }
    }

    /** RELIABILITY-SECURITY REL-01: a bad ICRC is a silent, counted drop; the timeout resends and the data lands intact. */
    @Test
    void aCorruptedPacketIsDroppedCountedAndResent() {
        FilteringDatagrams[] made = new FilteringDatagrams[1];
        try (RcPair p = pair((i, op, psn) -> false, made, 8, 7, 7)) {
            // Corrupt one byte of the first SEND on its way by sending a bad copy first.
            p.fill(p.bufA, 4);
            p.postRecv(1, 0, 64);
            long before = p.hca().countersSnapshot().get("drop_bad_icrc");
            injectCorrupted(p);
            RcPair.await(() -> p.hca().countersSnapshot().get("drop_bad_icrc") > before, DEADLINE, "a bad-ICRC drop");
            p.send(1, 0, 64);
            assertThat(RcPair.poll(p.cqB, 1, DEADLINE)).singleElement()
                    .satisfies(wc -> assertThat(wc.status).isEqualTo(WcStatus.SUCCESS));
            assertThat(p.bufB.asSlice(0, 64).mismatch(p.bufA.asSlice(0, 64))).isEqualTo(-1);
            assertThat(p.hca().drops(DropReason.BAD_ICRC)).isGreaterThan(before);
        }
    }

    /** Sends a SEND_ONLY for b whose ICRC is wrong, from a's address (the device's own socket). */
    private static void injectCorrupted(RcPair p) {
        java.nio.ByteBuffer pkt = java.nio.ByteBuffer.allocateDirect(12 + 64 + 4);
        new org.jrdma.soft.wire.Bth().wrap(pkt, 0).clear().opcode(0x04).pkey(0xFFFF).destQp(p.b.qpNum()).ackReq(true).psn(0x10);
        p.hca().endpoint().writeIcrc(new org.jrdma.soft.wire.Icrc(), p.hca().endpoint(), pkt, 0, pkt.capacity());
        pkt.put(20, (byte) (pkt.get(20) ^ 0x40)); // flip a payload bit after the ICRC was computed
        try {
            p.hca().datagrams().send(pkt, p.hca().localAddress());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
