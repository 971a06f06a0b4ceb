package org.jrdma.tools.perf;

import java.lang.foreign.ValueLayout;

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
 */
final class TargetCheck {
    static final long UC_SETTLE_NANOS = 2_000_000_000L;

    private TargetCheck() {
    }

    static void verify(PerfResources res, Verb verb, BwReport peer, int qps, int cycleBuffer, int peerSalt, CheckTally tally) {
        long settleUntil = System.nanoTime() + (res.type == org.jrdma.verbs.QpType.UC ? UC_SETTLE_NANOS : 0);
        long total = peer.iters();
        int size = (int) peer.size();
        for (int q = 0; q < qps; q++) {
            long n = total > q ? (total - q + qps - 1) / qps : 0;
            long region = res.layout.targetOffset(q);
            if (verb == Verb.ATOMIC) {
                long counter = res.buffer.get(ValueLayout.JAVA_LONG_UNALIGNED, region);
                if (counter == n) {
                    tally.ok();
                } else {
                    tally.fail("the atomic counter of QP " + q + " is " + counter + " after " + n + " operations");
                }
            } else if (verb == Verb.WRITE) {
                int stride = BufferLayout.stride(size);
                int slots = BufferLayout.remoteSlots(size, cycleBuffer, true);
                for (long x = 0; x < Math.min(slots, n); x++) {
                    long last = x + (n - 1 - x) / slots * slots;
                    long bad = DataPattern.verify(res.buffer, region + x * stride, size, last, peerSalt, 0);
                    while (bad >= 0 && System.nanoTime() < settleUntil) {
                        Thread.yield(); // the engine thread may still be placing it
                        bad = DataPattern.verify(res.buffer, region + x * stride, size, last, peerSalt, 0);
                    }
                    if (bad < 0) {
                        tally.ok();
                    } else {
                        tally.fail("WRITE " + last + " of QP " + q + " (slot " + x + ") differs at byte " + bad);
                    }
                }
            }
        }
    }
}
