package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.List;
import org.jrdma.soft.engine.SourceCheck;
import org.jrdma.soft.transport.QpCounter;
import org.jrdma.soft.wire.AtomicAckEth;
import org.jrdma.soft.wire.Bth;
import org.jrdma.soft.wire.DropReason;
import org.jrdma.soft.wire.OpcodeTable;
import org.jrdma.soft.wire.Reth;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/**
 * RELIABILITY-SECURITY SEC-19: an on-path attacker records a's SEND, WRITE, FETCH_ADD,
 * CMP_SWAP and READ (a {@link Attacker.Tap} on a's socket) and replays them with their original
 * PSNs after they completed. In strict mode the replays from the attacker's own port never reach
 * the responder; in compat mode they do, and every side effect still happens exactly once:
 * SEND/WRITE are re-ACKed and not re-executed, no receive is consumed twice, the atomics are
 * answered with their saved original values, a READ is replayed only with the same rkey.
 */
class ReplayTest {
    private static final Duration QUIET = Duration.ofMillis(200);
    private static final long WRITE_AT = 1024;
    private static final long ADD_AT = 2048;
    private static final long SWAP_AT = 2056;
    private static final long READ_AT = 3072;
    private static final int[] REQUESTS = {Attacker.SEND_ONLY, Attacker.WRITE_ONLY, Attacker.FETCH_ADD,
        Attacker.COMPARE_SWAP, Attacker.READ_REQUEST};

    @Test
    void sec19CompatReplaysHaveExactlyOnceSideEffects() throws Exception {
        Attacker.Tap tapA = new Attacker.Tap();
        Attacker.Tap tapB = new Attacker.Tap();
        SoftOptions compat = SoftOptions.defaults().sourceCheck(SourceCheck.COMPAT);
        try (VictimPair p = new VictimPair("sec19c", compat.datagrams(tapA), compat.datagrams(tapB), 8192, 4, 14);
             Attacker h3 = Attacker.bind(p.ipA(), 0)) {
            runOnce(p);
            // Afterwards b's application changes what a re-executed request would overwrite.
            p.bufB.asSlice(WRITE_AT, 16).fill((byte) 0x55);
            long addNow = p.bufB.get(ValueLayout.JAVA_LONG, ADD_AT);
            long swapNow = p.bufB.get(ValueLayout.JAVA_LONG, SWAP_AT);
            assertThat(addNow).isEqualTo(101);
            assertThat(swapNow).isEqualTo(42);
            p.postRecvB(9, 512, 64); // a replayed SEND must not consume it
            int sentBefore = tapB.sent.size();
            long dupBefore = p.hcaB().count(QpCounter.DUPLICATE_REQUESTS);

            for (int op : REQUESTS) {
                h3.send(tapA.first(op), p.victimB());
            }
            ByteBuffer otherKey = tapA.first(Attacker.READ_REQUEST); // the READ with a different rkey
            new Reth().wrap(otherKey, OpcodeTable.get(Attacker.READ_REQUEST).rethOffset()).rkey(p.mrB.rkey() ^ 0x100);
            h3.send(otherKey, p.victimB());
            VictimPair.await(() -> p.hcaB().count(QpCounter.DUPLICATE_REQUESTS) >= dupBefore + 6, "six duplicates");

            assertThat(VictimPair.poll(p.cqB, 1, QUIET)).as("no receive consumed twice").isEmpty();
            assertThat(p.bufB.get(ValueLayout.JAVA_BYTE, WRITE_AT)).as("WRITE not re-executed").isEqualTo((byte) 0x55);
            assertThat(p.bufB.get(ValueLayout.JAVA_LONG, ADD_AT)).as("FETCH_ADD not re-executed").isEqualTo(addNow);
            assertThat(p.bufB.get(ValueLayout.JAVA_LONG, SWAP_AT)).as("CMP_SWAP not re-executed").isEqualTo(swapNow);
            assertThat(p.hcaB().count(QpCounter.DUPLICATES_DROPPED)).as("the READ under another rkey").isEqualTo(1);
            // b answered the atomics from its replay cache: the same original values as the first
            // time (a's own retransmissions under load may add more answers, all the same).
            int addPsn = psn(tapA.first(Attacker.FETCH_ADD).array());
            VictimPair.await(() -> atomicAcks(tapB.sent.subList(sentBefore, tapB.sent.size())).size() >= 2,
                    "the atomic replays answered");
            for (long[] ack : atomicAcks(tapB.sent)) {
                assertThat(ack[1]).as("original for PSN %d", ack[0]).isEqualTo(ack[0] == addPsn ? 100L : 7L);
            }
            // The READ replay re-sent the range (to a, the peer, not the attacker) and a ignored it.
            VictimPair.await(() -> readResponses(tapB.sent.subList(sentBefore, tapB.sent.size())) >= 2, "READ replayed");
            assertThat(VictimPair.poll(p.cqA, 1, QUIET)).isEmpty();
        }
    }

    @Test
    void sec19StrictReplaysFromAnotherPortNeverReachTheResponder() throws Exception {
        Attacker.Tap tapA = new Attacker.Tap();
        SoftOptions strict = SoftOptions.defaults().sourceCheck(SourceCheck.STRICT);
        try (VictimPair p = new VictimPair("sec19s", strict.datagrams(tapA), strict, 8192, 4, 14);
             Attacker h3 = Attacker.bind(p.ipA(), 0)) {
            runOnce(p);
            for (int op : REQUESTS) {
                h3.send(tapA.first(op), p.victimB());
            }
            VictimPair.await(() -> p.dropsB(DropReason.WRONG_SOURCE_PORT) == REQUESTS.length, "all replays dropped");
            assertThat(p.bufB.get(ValueLayout.JAVA_LONG, ADD_AT)).isEqualTo(101);
        }
    }

    /** a: SEND, WRITE, FETCH_ADD(+1) on 100, CMP_SWAP(7→42), READ of 2 KiB; all complete. */
    private static void runOnce(VictimPair p) {
        p.postRecvB(1, 0, 64);
        p.bufB.set(ValueLayout.JAVA_LONG, ADD_AT, 100);
        p.bufB.set(ValueLayout.JAVA_LONG, SWAP_AT, 7);
        p.bufA.asSlice(0, 64).fill((byte) 0x22);
        p.sendAtoB(1, 0, 16);
        long rb = p.mrB.addr();
        int rkey = p.mrB.rkey();
        p.a.postSend(wr(2, WrOpcode.RDMA_WRITE, p, 0, 16).rdma(rb + WRITE_AT, rkey));
        p.a.postSend(wr(3, WrOpcode.ATOMIC_FETCH_AND_ADD, p, 64, 8).atomic(rb + ADD_AT, rkey, 1, 0));
        p.a.postSend(wr(4, WrOpcode.ATOMIC_CMP_AND_SWP, p, 72, 8).atomic(rb + SWAP_AT, rkey, 7, 42));
        p.a.postSend(wr(5, WrOpcode.RDMA_READ, p, 4096, 2048).rdma(rb + READ_AT, rkey));
        assertThat(VictimPair.poll(p.cqA, 5, VictimPair.DEADLINE)).hasSize(5)
                .allSatisfy(wc -> assertThat(wc.status).isEqualTo(WcStatus.SUCCESS));
        assertThat(VictimPair.poll(p.cqB, 1, VictimPair.DEADLINE)).hasSize(1);
        assertThat(p.bufB.get(ValueLayout.JAVA_LONG, ADD_AT)).isEqualTo(101);
        assertThat(p.bufB.get(ValueLayout.JAVA_LONG, SWAP_AT)).isEqualTo(42);
    }

    private static SendWorkRequest wr(long id, WrOpcode op, VictimPair p, long offset, int length) {
        return new SendWorkRequest().wrId(id).opcode(op).flags(SendFlags.SIGNALED).sg(Sge.of(p.mrA, offset, length));
    }

    /** The atomic ACKs captured, in order: {PSN, original value}. */
    private static List<long[]> atomicAcks(List<byte[]> packets) {
        int off = OpcodeTable.get(Attacker.ATOMIC_ACKNOWLEDGE).atomicAckEthOffset();
        return packets.stream().filter(b -> (b[0] & 0xFF) == Attacker.ATOMIC_ACKNOWLEDGE)
                .map(b -> new long[] {psn(b),
                    new AtomicAckEth().wrap(ByteBuffer.wrap(b).order(ByteOrder.BIG_ENDIAN), off).originalValue()})
                .toList();
    }

    private static long readResponses(List<byte[]> packets) {
        return packets.stream().filter(b -> (b[0] & 0xFF) >= 0x0D && (b[0] & 0xFF) <= 0x10).count();
    }

    static int psn(byte[] packet) {
        return new Bth().wrap(ByteBuffer.wrap(packet), 0).psn();
    }
}
