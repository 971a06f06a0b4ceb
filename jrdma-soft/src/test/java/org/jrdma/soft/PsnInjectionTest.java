package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.jrdma.soft.engine.SourceCheck;
import org.jrdma.soft.transport.QpCounter;
import org.jrdma.soft.wire.DropReason;
import org.jrdma.soft.wire.Psn;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.junit.jupiter.api.Test;

/**
 * RELIABILITY-SECURITY SEC-10 (blind PSN sweep from the peer's address) and SEC-13 (silent
 * replacement): what the PSN check alone protects, with the source checks out of the way
 * (compat mode), and what strict mode adds.
 */
class PsnInjectionTest {
    private static final Duration QUIET = Duration.ofMillis(200);

    /**
     * SEC-10: SEND_ONLY at {@value #SWEEP} random distinct PSNs plus the expected one, in random
     * order (seeded), from the peer's IP on another port, compat mode. Exactly the ePSN packet is
     * accepted; every other is a counted duplicate (re-ACKed to the peer, not the attacker) or
     * out of sequence (at most one sequence NAK per expected PSN, also to the peer).
     */
    @Test
    void sec10BlindSweepIsAcceptedOnlyAtTheExpectedPsn() throws Exception {
        SplittableRandom random = new SplittableRandom(0x5EC10L);
        int ePsn = VictimPair.A_TO_B_PSN;
        Set<Integer> seen = new HashSet<>();
        int[] order = new int[SWEEP + 1];
        int at = random.nextInt(SWEEP + 1);
        for (int i = 0; i <= SWEEP; i++) {
            if (i == at) {
                order[i] = ePsn;
                continue;
            }
            int psn;
            do {
                psn = random.nextInt(1 << 24);
            } while (psn == ePsn || psn == Psn.next(ePsn) || !seen.add(psn));
            order[i] = psn;
        }
        try (VictimPair p = new VictimPair("sec10", SourceCheck.COMPAT, 4096, 1);
             Attacker h3 = Attacker.bind(p.ipA(), 0)) {
            p.postRecvB(1, 0, 64);
            ByteBuffer pkt = Attacker.sendOnly(p.b.qpNum(), 0, SourceCheckTest.marker(0xAB, 16));
            long t0 = System.nanoTime();
            p.floodB(h3, order.length, i -> Attacker.psn(pkt, order[i]), () -> handled(p));
            VictimPair.await(() -> handled(p) == SWEEP + 1, "every packet handled");
            long nanos = System.nanoTime() - t0;

            WorkCompletion wc = VictimPair.poll(p.cqB, 1, VictimPair.DEADLINE).getFirst();
            assertThat(wc.byteLen).isEqualTo(16);
            assertThat(p.bufB.get(ValueLayout.JAVA_BYTE, 0)).isEqualTo((byte) 0xAB);
            assertThat(VictimPair.poll(p.cqB, 1, QUIET)).as("only one acceptance").isEmpty();
            assertThat(p.b.query().rqPsn()).isEqualTo(Psn.next(ePsn));
            long dup = p.hcaB().count(QpCounter.DUPLICATE_REQUESTS);
            long ahead = p.hcaB().count(QpCounter.OUT_OF_SEQUENCE);
            assertThat(dup + ahead).isEqualTo(SWEEP);
            assertThat(p.hcaB().count(QpCounter.SEQ_NAKS_SENT)).isBetween(1L, 2L); // one per expected PSN
            // Both halves of the PSN space are hit, as the model says (about half each).
            assertThat(dup).isBetween(SWEEP / 3L, SWEEP * 2L / 3);
            assertThat(p.a.state()).isEqualTo(QpState.RTS); // the re-ACKs and NAKs to a changed nothing there
            assertThat(VictimPair.poll(p.cqA, 1, QUIET)).isEmpty();
            double perPacketMicros = nanos / 1e3 / (SWEEP + 1);
            System.out.printf("SEC-10: accepted at packet %d of %d (model for a full 2^24 sweep: uniform, mean 2^23);"
                    + " %d duplicates re-ACKed to the peer, %d ahead, %d sequence NAKs; %.1f us per rejected packet"
                    + " end to end (%.0f packets/s: a full 2^24 sweep would take %.0f s)%n", at + 1, SWEEP + 1, dup,
                    ahead, p.hcaB().count(QpCounter.SEQ_NAKS_SENT), perPacketMicros, 1e6 / perPacketMicros,
                    (1 << 24) * perPacketMicros / 1e6);
        }
    }

    private static final int SWEEP = 8192;

    /** Datagrams b's device took in (the peer is idle: all of them the attacker's). */
    private static long handled(VictimPair p) {
        return p.hcaB().count(QpCounter.RCVD_PACKETS);
    }

    /**
     * SEC-14 compat: accepted injections while a is idle, in PSN order from a's IP (WRITE_ONLY of
     * 8 bytes). b cannot tell them from a's own traffic and its expected PSN advances with them —
     * but b acknowledges them to a, for PSNs a never sent, and a counts every such response
     * (UNSENT_PSN_RESPONSES): the alert. {@value #WRAP_DEFAULT} packets by default; the full wrap
     * of the catalogue is {@code -Djrdma.sec14.packets=16777216} (b's PSN then returns to where
     * a expects it and a's next SEND lands, as ReDMArk describes — only the alert tells).
     */
    @Test
    void sec14CompatInjectedPsnAdvanceRaisesTheUnsentPsnAlert() throws Exception {
        int packets = Integer.getInteger("jrdma.sec14.packets", WRAP_DEFAULT);
        try (VictimPair p = new VictimPair("sec14c", SourceCheck.COMPAT, 4096, 1);
             Attacker h3 = Attacker.bind(p.ipA(), 0)) {
            int start = VictimPair.A_TO_B_PSN;
            ByteBuffer w = Attacker.writeOnly(p.b.qpNum(), start, p.mrB.addr(), p.mrB.rkey(), new byte[8]);
            long t0 = System.nanoTime();
            p.floodB(h3, packets, i -> Attacker.psn(w, Psn.add(start, i)), () -> handled(p));
            VictimPair.await(() -> handled(p) == packets, "every packet handled");
            long nanos = System.nanoTime() - t0;
            assertThat(p.b.query().rqPsn()).as("accepted: the implausible advance").isEqualTo(Psn.add(start, packets));
            VictimPair.await(() -> p.hcaA().count(QpCounter.UNSENT_PSN_RESPONSES) > 0, "the alert at a");
            assertThat(p.a.state()).isEqualTo(QpState.RTS);
            assertThat(VictimPair.poll(p.cqA, 1, QUIET)).isEmpty();
            System.out.printf("SEC-14: %d injected packets accepted in %.1f s (%.0f/s; a full 2^24 wrap: %.0f s);"
                    + " alert at a: %d responses for unsent PSNs%n", packets, nanos / 1e9, packets * 1e9 / nanos,
                    (1 << 24) * (nanos / 1e9) / packets, p.hcaA().count(QpCounter.UNSENT_PSN_RESPONSES));
            if (packets % (1 << 24) == 0) {
                p.postRecvB(1, 0, 64);
                p.sendAtoB(2, 0, 16);
                assertThat(VictimPair.poll(p.cqB, 1, VictimPair.DEADLINE)).hasSize(1); // the connection continues
            }
        }
    }

    /** SEC-14 strict: once a's port is pinned, the same injection is dropped from its first packet. */
    @Test
    void sec14StrictDropsTheWrapInjectionFromTheFirstPacket() throws Exception {
        try (VictimPair p = new VictimPair("sec14s", SourceCheck.STRICT, 4096, 1);
             Attacker h3 = Attacker.bind(p.ipA(), 0)) {
            p.postRecvB(1, 0, 64);
            p.sendAtoB(1, 0, 16);
            assertThat(VictimPair.poll(p.cqB, 1, VictimPair.DEADLINE)).hasSize(1);
            int start = Psn.next(VictimPair.A_TO_B_PSN);
            ByteBuffer w = Attacker.writeOnly(p.b.qpNum(), start, p.mrB.addr(), p.mrB.rkey(), new byte[8]);
            int packets = 2000;
            p.floodB(h3, packets, i -> Attacker.psn(w, Psn.add(start, i)), () -> p.dropsB(DropReason.WRONG_SOURCE_PORT));
            VictimPair.await(() -> p.dropsB(DropReason.WRONG_SOURCE_PORT) == packets, "all dropped");
            assertThat(p.b.query().rqPsn()).isEqualTo(start);
            assertThat(p.hcaA().count(QpCounter.UNSENT_PSN_RESPONSES)).isZero();
        }
    }

    private static final int WRAP_DEFAULT = 20_000;

    /**
     * SEC-13 compat (the spec behaviour, ReDMArk §5.1): one SEND injected at ePSN just before
     * the peer's own SEND with that PSN. The peer's SEND is then a duplicate: ACKed, and its WR
     * completes successfully although its data never landed — the injected bytes did. Only the
     * duplicate counter shows it; detecting it needs auth mode (AUTH-03) or application checksums.
     */
    @Test
    void sec13CompatSilentReplacementCompletesThePeersWrAndCountsADuplicate() throws Exception {
        try (VictimPair p = new VictimPair("sec13c", SourceCheck.COMPAT, 4096, 1);
             Attacker h3 = Attacker.bind(p.ipA(), 0)) {
            p.postRecvB(1, 0, 64);
            h3.send(Attacker.sendOnly(p.b.qpNum(), VictimPair.A_TO_B_PSN, SourceCheckTest.marker(0xEE, 16)), p.victimB());
            assertThat(VictimPair.poll(p.cqB, 1, VictimPair.DEADLINE)).hasSize(1);
            p.bufA.asSlice(0, 16).fill((byte) 0x11);
            p.sendAtoB(5, 0, 16);
            WorkCompletion wc = VictimPair.poll(p.cqA, 1, VictimPair.DEADLINE).getFirst();
            assertThat(wc.wrId).isEqualTo(5);
            assertThat(wc.status).as("the limitation: success, data replaced").isEqualTo(WcStatus.SUCCESS);
            assertThat(p.bufB.get(ValueLayout.JAVA_BYTE, 0)).isEqualTo((byte) 0xEE);
            VictimPair.await(() -> p.hcaB().count(QpCounter.DUPLICATE_REQUESTS) >= 1, "the duplicate counted");
        }
    }

    /**
     * SEC-13 strict: once the peer's port is pinned the injection is dropped and the peer's data
     * lands. Injected before the peer ever sent, it wins the pin — and the peer's SEND is then
     * dropped as wrong source port until its retries run out: the WR fails loudly
     * (RETRY_EXC_ERR) instead of succeeding silently. (Unless the peer's SEND is already in
     * flight when b's ACK of the injected one reaches it: that genuine ACK completes it, as in
     * compat mode. Strict mode closes the gap only once the pin is set.)
     */
    @Test
    void sec13StrictTurnsSilentReplacementIntoADropOrAVisibleFailure() throws Exception {
        try (VictimPair p = new VictimPair("sec13s", SourceCheck.STRICT, 4096, 1);
             Attacker h3 = Attacker.bind(p.ipA(), 0)) {
            // After the pin: dropped, the peer's bytes land.
            p.postRecvB(1, 0, 64);
            p.postRecvB(2, 64, 64);
            p.sendAtoB(5, 0, 16);
            assertThat(VictimPair.poll(p.cqB, 1, VictimPair.DEADLINE)).hasSize(1);
            h3.send(Attacker.sendOnly(p.b.qpNum(), VictimPair.A_TO_B_PSN + 1, SourceCheckTest.marker(0xEE, 16)),
                    p.victimB());
            VictimPair.await(() -> p.dropsB(DropReason.WRONG_SOURCE_PORT) == 1, "the injection dropped");
            p.bufA.asSlice(0, 16).fill((byte) 0x11);
            p.sendAtoB(6, 0, 16);
            assertThat(VictimPair.poll(p.cqB, 1, VictimPair.DEADLINE).getFirst().wrId).isEqualTo(2);
            assertThat(p.bufB.get(ValueLayout.JAVA_BYTE, 64)).isEqualTo((byte) 0x11);
        }
        SoftOptions strict = SoftOptions.defaults().sourceCheck(SourceCheck.STRICT);
        try (VictimPair p = new VictimPair("sec13f", strict, strict, 4096, 1, 8); // ~1 ms ACK timeout
             Attacker h3 = Attacker.bind(p.ipA(), 0)) {
            // Before the pin: the attacker takes it, the peer's WR fails visibly.
            p.postRecvB(1, 0, 64);
            h3.send(Attacker.sendOnly(p.b.qpNum(), VictimPair.A_TO_B_PSN, SourceCheckTest.marker(0xEE, 16)), p.victimB());
            assertThat(VictimPair.poll(p.cqB, 1, VictimPair.DEADLINE)).hasSize(1);
            assertThat(p.pinnedAtB()).isEqualTo(h3.address().getPort());
            // b ACKs the injected SEND to a (responses go to the connected peer). Had a's own SEND
            // with that PSN been in flight, that genuine ACK would complete it — the compat outcome;
            // arriving first, a's completer drops it (nothing sent there yet).
            VictimPair.await(() -> p.hcaA().count(QpCounter.COMPLETER_DROPS) >= 1, "b's ACK reached a");
            p.sendAtoB(5, 0, 16);
            WorkCompletion wc = VictimPair.poll(p.cqA, 1, VictimPair.DEADLINE).getFirst();
            assertThat(wc.status).isEqualTo(WcStatus.RETRY_EXC_ERR);
            VictimPair.await(() -> p.dropsB(DropReason.WRONG_SOURCE_PORT) >= 8, "the send and its 7 retries dropped");
        }
    }
}
