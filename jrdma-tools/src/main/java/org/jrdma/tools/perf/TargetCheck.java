package org.jrdma.tools.perf;

import java.lang.foreign.ValueLayout;
import org.jrdma.verbs.QpType;

/**
 * {@code --check} on the passive side of a WRITE or atomic test: once the peer's report says how
 * many iterations it ran, what its operations left in our target regions is known. Iteration
 * {@code k} went to QP {@code k mod q} as that QP's message {@code s = k div q}; a WRITE slot
 * holds the last message that cycled through it; an atomic counter holds the QP's message count
 * (FETCH_AND_ADD added 1 each time, CMP_AND_SWAP moved it from {@code s} to {@code s + 1}).
 *
 * <p>On UC a WRITE completes at the sender once it is sent, not once it arrived, so the report
 * can overtake the last WRITEs: a slot that does not match yet is looked at again until
 * {@link #UC_SETTLE_NANOS} has passed (on RC the completion meant the peer had acknowledged it).
 * And UC loses WRITEs for good (a lost packet drops the rest of its message, after the packets
 * before it were placed): a slot whose last WRITE never came whole holds, packet by packet, an
 * earlier WRITE into it, or nothing. So on UC each path-MTU piece of a slot must be the intact
 * piece of some WRITE into that slot, or untouched (zero); a piece that is neither — a
 * corrupted or misplaced byte — fails.
 */
final class TargetCheck {
    static final long UC_SETTLE_NANOS = 2_000_000_000L;

    private TargetCheck() {
    }

    static void verify(PerfResources res, Verb verb, BwReport peer, int qps, int cycleBuffer, int peerSalt, int mtuBytes,
            CheckTally tally) {
        verify(res, verb, peer, qps, cycleBuffer, peerSalt, mtuBytes, UC_SETTLE_NANOS, tally);
    }

    /** {@code ucSettleNanos}: how long a UC slot may take to receive its last WRITE (tests: 0). */
    static void verify(PerfResources res, Verb verb, BwReport peer, int qps, int cycleBuffer, int peerSalt, int mtuBytes,
            long ucSettleNanos, CheckTally tally) {
        boolean uc = res.type == QpType.UC;
        long settleUntil = System.nanoTime() + (uc ? ucSettleNanos : 0);
        long total = peer.iters();
        int size = (int) peer.size();
        long earlier = 0;
        for (int q = 0; q < qps; q++) {
            long n = total > q ? (total - q + qps - 1) / qps : 0;
            long region = res.layout.targetOffset(q);
            if (verb == Verb.ATOMIC) {
                long counter = res.buffer.get(ValueLayout.JAVA_LONG_UNALIGNED, region);
                if (counter == n) {
                    tally.ok(CheckTally.Item.COUNTER);
                } else {
                    tally.fail("the atomic counter of QP " + q + " is " + counter + " after " + n + " operations");
                }
            } else if (verb == Verb.WRITE) {
                int stride = BufferLayout.stride(size);
                int slots = BufferLayout.remoteSlots(size, cycleBuffer, true);
                tally.writesIntoSlots(n);
                for (long x = 0; x < Math.min(slots, n); x++) {
                    long last = x + (n - 1 - x) / slots * slots;
                    long offset = region + x * stride;
                    long bad = DataPattern.verify(res.buffer, offset, size, last, peerSalt, 0);
                    while (bad >= 0 && System.nanoTime() < settleUntil) {
                        Thread.yield(); // the engine thread may still be placing it
                        bad = DataPattern.verify(res.buffer, offset, size, last, peerSalt, 0);
                    }
                    if (bad >= 0 && uc) {
                        long piece = firstForeignPiece(res, offset, size, x, last, slots, peerSalt, mtuBytes);
                        if (piece < 0) {
                            earlier++;
                            bad = -1;
                        } else {
                            bad = piece;
                        }
                    }
                    if (bad < 0) {
                        tally.ok(CheckTally.Item.SLOT);
                    } else {
                        tally.fail("WRITE " + last + " of QP " + q + " (slot " + x + ") differs at byte " + bad
                                + (uc ? ", and its piece there is no earlier WRITE's into the slot either" : ""));
                    }
                }
            }
        }
        if (earlier > 0) {
            tally.note(earlier + " of the slots hold an earlier WRITE into them, in part or whole, or nothing: UC lost the later ones");
        }
    }

    /**
     * UC: the offset of the first path-MTU piece of the slot that is neither untouched nor the
     * intact piece of one of the WRITEs {@code x, x + slots, …, last} that went there; -1 if none.
     */
    private static long firstForeignPiece(PerfResources res, long offset, int size, long x, long last, int slots, int salt,
            int mtuBytes) {
        for (long at = 0; at < size; at += mtuBytes) {
            int length = (int) Math.min(mtuBytes, size - at);
            if (!untouched(res, offset + at, length) && writeWithPiece(res, offset + at, length, at, x, last, slots, salt) < 0) {
                return at;
            }
        }
        return -1;
    }

    /** The newest of the WRITEs into the slot whose piece at {@code at} is in place, or -1. */
    private static long writeWithPiece(PerfResources res, long pieceOffset, int length, long at, long x, long last, int slots,
            int salt) {
        for (long seq = last; seq >= x; seq -= slots) {
            if (DataPattern.verify(res.buffer, pieceOffset, length, seq, salt, at) < 0) {
                return seq;
            }
        }
        return -1;
    }

    private static boolean untouched(PerfResources res, long offset, int length) {
        for (int i = 0; i < length; i++) {
            if (res.buffer.get(ValueLayout.JAVA_BYTE, offset + i) != 0) {
                return false;
            }
        }
        return true;
    }
}
