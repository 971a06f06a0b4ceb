package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.jrdma.soft.engine.SourceCheck;
import org.jrdma.soft.transport.QpCounter;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/**
 * RELIABILITY-SECURITY SEC-20: spoofed duplicate READ requests (one 32-byte packet each) for a
 * 1 MiB READ b already served. rxe replays every one (an amplification of 1 MiB per packet);
 * we replay at most {@code MAX_STALLED_REPLAYS} in a row that ask for nothing new while the
 * requester sends nothing new, and count the rest (see ReadAtomicResponder#worthReplaying).
 * Compat mode, so the duplicates reach the responder (in strict mode the attacker would also
 * need a's exact source port).
 */
class DuplicateReadAmplificationTest {
    private static final int MIB = 1 << 20;
    private static final int DUPLICATES = 500;

    @Test
    void sec20DuplicateReadFloodIsBoundedAndCounted() throws Exception {
        try (VictimPair p = new VictimPair("sec20", SourceCheck.COMPAT, MIB, 1);
             Attacker h3 = Attacker.bind(p.ipA(), 0)) {
            int readPsn = VictimPair.A_TO_B_PSN;
            p.a.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.RDMA_READ).flags(SendFlags.SIGNALED)
                    .sg(Sge.of(p.mrA, 0, MIB)).rdma(p.mrB.addr(), p.mrB.rkey()));
            assertThat(VictimPair.poll(p.cqA, 1, VictimPair.DEADLINE).getFirst().status).isEqualTo(WcStatus.SUCCESS);
            long bytesBefore = p.hcaB().count(QpCounter.SENT_BYTES);

            ByteBuffer dup = Attacker.readRequest(p.b.qpNum(), readPsn, p.mrB.addr(), p.mrB.rkey(), MIB);
            int attackerBytes = 0;
            for (int i = 0; i < DUPLICATES; i++) {
                h3.send(dup, p.victimB());
                attackerBytes += dup.capacity();
                int sent = i + 1;
                // Paced so that no duplicate is lost in the socket buffer: each one is counted.
                VictimPair.await(() -> p.hcaB().count(QpCounter.DUPLICATE_REQUESTS) >= sent, "duplicate seen");
            }
            long limited = p.hcaB().count(QpCounter.DUPLICATE_READS_LIMITED);
            // Every replay that was allowed finishes sending.
            VictimPair.await(() -> !busy(p), "replies finished");
            long responseBytes = p.hcaB().count(QpCounter.SENT_BYTES) - bytesBefore;
            long replays = DUPLICATES - limited;
            assertThat(limited).isGreaterThanOrEqualTo(DUPLICATES - 16L - 1);
            assertThat(responseBytes).as("bounded by the replays allowed").isLessThanOrEqualTo((replays + 1) * (MIB + MIB / 8));
            System.out.printf("SEC-20: %d duplicate READs of 1 MiB (%d attacker bytes): %d replayed (some cut short"
                    + " by the next), %d limited; %d response bytes; amplification %.0fx (unbounded rxe-like replay:"
                    + " %.0fx, and it grows with the flood; the cap is %d replays of 1 MiB however long it lasts)%n",
                    DUPLICATES, attackerBytes, replays, limited, responseBytes, (double) responseBytes / attackerBytes,
                    (double) DUPLICATES * MIB / attackerBytes, 16);
            // The honest requester is unaffected: a new READ after the flood works.
            p.a.postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.RDMA_READ).flags(SendFlags.SIGNALED)
                    .sg(Sge.of(p.mrA, 0, 4096)).rdma(p.mrB.addr(), p.mrB.rkey()));
            assertThat(VictimPair.poll(p.cqA, 1, VictimPair.DEADLINE).getFirst().status).isEqualTo(WcStatus.SUCCESS);
        }
    }

    /** b is still sending a replay (every duplicate was already handled: counted above). */
    private static boolean busy(VictimPair p) {
        SoftQp q = (SoftQp) p.b;
        synchronized (q) {
            return q.transport().readReplyInProgress();
        }
    }
}
