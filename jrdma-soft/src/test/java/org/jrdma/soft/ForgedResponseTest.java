package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.time.Duration;
import org.jrdma.soft.engine.SourceCheck;
import org.jrdma.soft.transport.QpCounter;
import org.jrdma.soft.wire.Aeth;
import org.jrdma.soft.wire.DropReason;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/**
 * RELIABILITY-SECURITY SEC-15 (ghost ACK/NAK), SEC-16 (forged READ response and atomic ACK) and
 * SEC-18 (spoofed CNP): forged responses aimed at a requester a whose peer b has gone silent
 * (b in ERR drops a's requests), so a's WR is outstanding and unanswered. a's ACK timer is off
 * (timeout 0): nothing but a forged packet could complete it.
 */
class ForgedResponseTest {
    private static final Duration QUIET = Duration.ofMillis(200);

    /** a and b connected; one SEND exchanged (pinning each other's port in strict mode); then b silenced. */
    private static VictimPair silencedPeer(String name, SourceCheck check) {
        SoftOptions o = SoftOptions.defaults().sourceCheck(check);
        VictimPair p = new VictimPair(name, o, o, 4096, 1, 0);
        p.postRecvB(1, 0, 64);
        p.sendAtoB(1, 0, 16);
        assertThat(VictimPair.poll(p.cqA, 1, VictimPair.DEADLINE)).singleElement()
                .satisfies(wc -> assertThat(wc.status).isEqualTo(WcStatus.SUCCESS));
        assertThat(VictimPair.poll(p.cqB, 1, VictimPair.DEADLINE)).hasSize(1);
        p.b.modify(new QpAttr().state(QpState.ERR));
        VictimPair.poll(p.cqB, 64, QUIET); // flushed receives, if any
        return p;
    }

    /** a's next PSN after the warm-up SEND. */
    private static final int NEXT = VictimPair.A_TO_B_PSN + 1;

    /**
     * SEC-15: from b's IP (compat, so only the completer's own bound stands), ACKs and a
     * sequence NAK for PSNs a never sent are dropped and counted; no WR completes.
     */
    @Test
    void sec15GhostAcksAndNaksBeyondWhatWasSentCompleteNothing() throws Exception {
        try (VictimPair p = silencedPeer("sec15", SourceCheck.COMPAT);
             Attacker h3 = Attacker.bind(p.ipB(), 0)) {
            p.sendAtoB(2, 0, 16); // PSN NEXT, never answered
            VictimPair.await(() -> p.dropsB(DropReason.BAD_QP_STATE) == 1, "a's SEND reached the silent b");
            long before = p.hcaA().count(QpCounter.COMPLETER_DROPS);
            int a = p.a.qpNum();
            h3.send(Attacker.ack(a, NEXT + 1, Aeth.ACK_SYNDROME, 9), p.victimA()); // one past the last sent
            h3.send(Attacker.ack(a, NEXT + (1 << 22), Aeth.ACK_SYNDROME, 9), p.victimA()); // far ahead
            h3.send(Attacker.ack(a, NEXT + 2, Aeth.NAK_PSN_SEQUENCE_ERROR, 9), p.victimA()); // NAK-seq ahead
            h3.send(Attacker.ack(a, NEXT + 1, Aeth.NAK_REMOTE_ACCESS_ERROR, 9), p.victimA()); // fatal NAK, unsent PSN
            VictimPair.await(() -> p.hcaA().count(QpCounter.COMPLETER_DROPS) == before + 4, "four forged responses dropped");
            assertThat(VictimPair.poll(p.cqA, 1, QUIET)).as("no spurious completion").isEmpty();
            assertThat(p.hcaA().count(QpCounter.UNSENT_PSN_RESPONSES)).isEqualTo(4);
            assertThat(p.a.state()).isEqualTo(QpState.RTS);
        }
    }

    /**
     * SEC-15/16: the right PSN from a foreign IP, from (strict) b's IP on another port, and to a
     * QPN that is not a's: dropped before the PSN check, counted by reason, nothing completes.
     */
    @Test
    void sec15ForgedAckWithTheRightPsnNeedsTheRightSource() throws Exception {
        SoftDevice foreign = FreshDevices.fresh("sec15_foreign");
        try (VictimPair p = silencedPeer("sec15s", SourceCheck.STRICT);
             Attacker fromForeign = Attacker.bind(foreign.spec().address(), 0);
             Attacker fromB = Attacker.bind(p.ipB(), 0)) {
            assertThat(p.pinnedAtA()).isEqualTo(p.victimB().getPort());
            p.sendAtoB(2, 0, 16);
            VictimPair.await(() -> p.dropsB(DropReason.BAD_QP_STATE) == 1, "a's SEND reached the silent b");
            fromForeign.send(Attacker.ack(p.a.qpNum(), NEXT, Aeth.ACK_SYNDROME, 2), p.victimA());
            fromB.send(Attacker.ack(p.a.qpNum(), NEXT, Aeth.ACK_SYNDROME, 2), p.victimA());
            // The right PSN for a QPN that is not a's: no such QP.
            fromForeign.send(Attacker.ack(p.a.qpNum() ^ 0x5A5A5A, NEXT, Aeth.ACK_SYNDROME, 2), p.victimA());
            VictimPair.await(() -> p.dropsA(DropReason.WRONG_SOURCE) == 1 && p.dropsA(DropReason.WRONG_SOURCE_PORT) == 1
                    && p.dropsA(DropReason.UNKNOWN_QPN) == 1, "dropped by source, and by QPN");
            assertThat(VictimPair.poll(p.cqA, 1, QUIET)).isEmpty();
        }
    }

    /**
     * SEC-16: a READ_RESP_ONLY at the expected PSN with attacker bytes, and an atomic ACK, from a
     * foreign IP and (strict) from b's IP on another port: dropped, a's buffers untouched. In
     * compat mode, from b's IP, the READ response is accepted — the integrity gap only auth mode
     * closes (not implemented: no AUTH mode in this provider).
     */
    @Test
    void sec16ForgedReadResponseAndAtomicAck() throws Exception {
        SoftDevice foreign = FreshDevices.fresh("sec16_foreign");
        InetAddress foreignIp = foreign.spec().address();
        for (SourceCheck check : SourceCheck.values()) {
            try (VictimPair p = silencedPeer("sec16" + check.name().charAt(0), check);
                 Attacker fromForeign = Attacker.bind(foreignIp, 0);
                 Attacker fromB = Attacker.bind(p.ipB(), 0)) {
                int a = p.a.qpNum();
                p.bufA.asSlice(1024, 16).fill((byte) 0x11);
                p.a.postSend(new SendWorkRequest().wrId(3).opcode(WrOpcode.RDMA_READ).flags(SendFlags.SIGNALED)
                        .sg(Sge.of(p.mrA, 1024, 16)).rdma(p.mrB.addr(), p.mrB.rkey()));
                VictimPair.await(() -> p.dropsB(DropReason.BAD_QP_STATE) == 1, "the READ reached the silent b");
                byte[] evil = SourceCheckTest.marker(0xEE, 16);
                fromForeign.send(Attacker.readResponseOnly(a, NEXT, 2, evil), p.victimA());
                VictimPair.await(() -> p.dropsA(DropReason.WRONG_SOURCE) == 1, "foreign READ response dropped");
                assertThat(VictimPair.poll(p.cqA, 1, QUIET)).isEmpty();
                fromB.send(Attacker.readResponseOnly(a, NEXT, 2, evil), p.victimA());
                if (check == SourceCheck.STRICT) {
                    VictimPair.await(() -> p.dropsA(DropReason.WRONG_SOURCE_PORT) == 1, "off-port READ response dropped");
                    assertThat(VictimPair.poll(p.cqA, 1, QUIET)).isEmpty();
                    assertThat(p.bufA.get(ValueLayout.JAVA_BYTE, 1024)).isEqualTo((byte) 0x11);
                } else {
                    WorkCompletion wc = VictimPair.poll(p.cqA, 1, VictimPair.DEADLINE).getFirst();
                    assertThat(wc.status).isEqualTo(WcStatus.SUCCESS); // the compat integrity gap
                    assertThat(p.bufA.get(ValueLayout.JAVA_BYTE, 1024)).isEqualTo((byte) 0xEE);
                }
                // A forged atomic ACK for the next PSN: a sent nothing there yet (READ took NEXT).
                long drops = p.hcaA().count(QpCounter.COMPLETER_DROPS);
                fromForeign.send(Attacker.atomicAck(a, NEXT + 1, 3, 0xBADL), p.victimA());
                VictimPair.await(() -> p.dropsA(DropReason.WRONG_SOURCE) == 2, "foreign atomic ACK dropped");
                if (check == SourceCheck.COMPAT) {
                    fromB.send(Attacker.atomicAck(a, NEXT + 1, 3, 0xBADL), p.victimA());
                    VictimPair.await(() -> p.hcaA().count(QpCounter.COMPLETER_DROPS) == drops + 1,
                            "atomic ACK for an unsent PSN dropped by the completer");
                }
                assertThat(VictimPair.poll(p.cqA, 1, QUIET)).isEmpty();
            }
        }
    }

    /**
     * SEC-18: there is no congestion control, so a CNP (0x81) is dropped and counted as an
     * unsupported opcode before any QP is looked up, and cannot cut a rate. A flood of CNPs
     * at the victim QP during a transfer changes nothing the transfer can see.
     */
    @Test
    void sec18SpoofedCnpsAreDroppedAndTheTransferCompletes() throws Exception {
        int messages = 200;
        int cnps = 10_000;
        try (VictimPair p = new VictimPair("sec18", SourceCheck.STRICT, 1 << 16, 1);
             Attacker h3 = Attacker.bind(p.ipA(), 0)) {
            long baseline = transfer(p, messages, 0);
            Thread flood = Thread.ofPlatform().start(() -> {
                try {
                    var cnp = Attacker.cnp(p.b.qpNum());
                    for (int i = 0; i < cnps; i++) {
                        h3.send(cnp, p.victimB());
                    }
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            long flooded = transfer(p, messages, messages);
            flood.join();
            VictimPair.await(() -> p.dropsB(DropReason.UNSUPPORTED_OPCODE) == cnps, "every CNP counted");
            System.out.printf("SEC-18: %d messages of 4 KiB in %.1f ms alone, %.1f ms under %d spoofed CNPs"
                    + " (%.0f%% of baseline throughput); all %d CNPs dropped as unsupported opcode%n", messages,
                    baseline / 1e6, flooded / 1e6, cnps, 100.0 * baseline / flooded, cnps);
        }
    }

    /** Sends {@code n} 4 KiB SENDs a→b (b posts as many receives); returns the nanoseconds. */
    private static long transfer(VictimPair p, int n, int firstId) {
        long t0 = System.nanoTime();
        int window = 32;
        int done = 0;
        for (int i = 0; i < n; i++) {
            p.postRecvB(firstId + i, 0, 4096);
        }
        for (int sent = 0; sent < n; ) {
            while (sent < n && sent - done < window) {
                p.sendAtoB(firstId + sent, 0, 4096);
                sent++;
            }
            WorkCompletion wc = VictimPair.poll(p.cqA, 1, VictimPair.DEADLINE).getFirst();
            assertThat(wc.status).isEqualTo(WcStatus.SUCCESS);
            done++;
        }
        while (done < n) {
            assertThat(VictimPair.poll(p.cqA, 1, VictimPair.DEADLINE).getFirst().status).isEqualTo(WcStatus.SUCCESS);
            done++;
        }
        assertThat(VictimPair.poll(p.cqB, n, VictimPair.DEADLINE)).hasSize(n);
        return System.nanoTime() - t0;
    }
}
