package org.jrdma.tools.perf;

import java.lang.foreign.ValueLayout;
import org.jrdma.bootstrap.KeyMessage;
import org.jrdma.verbs.WrOpcode;

/**
 * read_lat and atomic_lat (perftest's run_iter_lat): only the client works, posting one READ (or
 * atomic) at a time on the server's target region and waiting for its completion; latency is
 * the whole round trip. The server's part is to keep its QP up until the client closes.
 * {@code --check} verifies every READ's bytes against the server's READ source pattern, and
 * every atomic's original value: FETCH_AND_ADD adds 1, CMP_AND_SWAP swaps {@code k} for
 * {@code k + 1}, so iteration {@code k} must find {@code k}.
 */
final class ReadAtomicLatency extends LatencyLoop {
    ReadAtomicLatency(PerfResources r, PerfConfig c, KeyMessage peer, CheckTally tally) {
        super(r, c, peer, tally);
    }

    LatencyStats run(int size, long iters, long durationNanos) {
        boolean atomic = c.verb() == Verb.ATOMIC;
        int bytes = atomic ? PerfTest.ATOMIC_BYTES : size;
        boolean byDuration = durationNanos > 0;
        prepare(iters, byDuration);
        long limit = byDuration ? Long.MAX_VALUE : iters;
        long dest = r.layout.localOffset(0);
        sge.set(r.localAddr(0), bytes, r.mr.lkey());
        wr.opcode = atomic ? c.atomicType().opcode() : WrOpcode.RDMA_READ;
        wr.sendFlags = sendFlags(bytes);
        wr.rdma(peer.vaddr(), peer.rkey());
        long start = System.nanoTime();
        runEndNanos = byDuration ? start + durationNanos : Long.MAX_VALUE;
        long k = 0;
        long posts = 0;
        long end = start;
        while (k < limit) {
            progress(k);
            if (c.check()) {
                r.buffer.asSlice(dest, bytes).fill((byte) 0xA5);
            }
            if (atomic) {
                boolean add = c.atomicType() == AtomicType.FETCH_AND_ADD;
                wr.atomic(peer.vaddr(), peer.rkey(), add ? 1 : k, add ? 0 : k + 1);
            }
            long t = System.nanoTime();
            if (byDuration && t >= runEndNanos) {
                break;
            }
            recordPost(k, t);
            wr.wrId = k;
            r.qps[0].postSend(wr);
            posts++;
            if (!awaitSends(k + 1)) {
                break;
            }
            if (c.check()) {
                verify(k, atomic, dest, bytes);
            }
            k++;
            end = System.nanoTime();
        }
        finish(posts, byDuration);
        return stats(bytes, k, start, end);
    }

    private void verify(long k, boolean atomic, long dest, int bytes) {
        if (atomic) {
            long original = r.buffer.get(ValueLayout.JAVA_LONG_UNALIGNED, dest);
            if (original == k) {
                tally.ok(CheckTally.Item.ATOMIC_RESULT);
            } else {
                tally.fail(c.atomicType() + " " + k + " returned " + original + ", expected " + k);
            }
            return;
        }
        long bad = DataPattern.verify(r.buffer, dest, bytes, DataPattern.READ_SOURCE, peerSalt, 0);
        if (bad < 0) {
            tally.ok(CheckTally.Item.READ);
        } else {
            tally.fail("READ " + k + " differs at byte " + bad);
        }
    }
}
