package org.jrdma.tools.perf;

import java.lang.invoke.VarHandle;
import java.lang.foreign.ValueLayout;
import org.jrdma.bootstrap.KeyMessage;
import org.jrdma.verbs.WrOpcode;

/**
 * write_lat's ping-pong (perftest's run_iter_lat_write): each side RDMA-WRITEs its message into
 * the other's target region (the server first, the client answering), and learns that the
 * peer's message arrived by polling the last byte of its own target region until it holds that
 * iteration's marker, {@code (byte) (k + 1)} — no receive, no completion on the receiving side.
 * The poll is a volatile read of the
 * MemorySegment; the soft provider places a WRITE's packets in PSN order, so when the last byte
 * changed the bytes before it are in place too (which {@code --check} verifies). The marker of
 * iteration {@code k} never equals the byte's previous value, that of {@code k − 1}; {@code -a}
 * moves the marker to a byte no smaller message touched. Sizes are at least 1.
 */
final class WriteLatency extends LatencyLoop {
    private static final VarHandle BYTE = ValueLayout.JAVA_BYTE.varHandle();
    private long repliesSeen;
    private int size;

    WriteLatency(PerfResources r, PerfConfig c, KeyMessage peer, CheckTally tally) {
        super(r, c, peer, tally);
    }

    LatencyStats run(int size, long iters, long durationNanos) {
        this.size = size;
        boolean byDuration = durationNanos > 0;
        prepare(iters, byDuration);
        repliesSeen = 0;
        long limit = byDuration ? Long.MAX_VALUE : iters;
        long source = r.layout.localOffset(0);
        sge.set(r.localAddr(0), size, r.mr.lkey());
        wr.opcode = WrOpcode.RDMA_WRITE;
        wr.sendFlags = sendFlags(size);
        wr.rdma(peer.vaddr(), peer.rkey());
        // perftest's run_iter_lat_write: the SERVER writes first (it skips the wait while
        // scnt < 1), the client answers — the reverse of send_lat. With the client first, as
        // we had it, a perftest server wrote too and both spun on the wrong marker (rxe lab).
        boolean initiator = c.isServer();
        long start = System.nanoTime();
        runEndNanos = byDuration ? start + durationNanos : Long.MAX_VALUE;
        long k = 0;
        long end = start;
        while (k < limit) {
            progress(k);
            if (!initiator && !awaitMarker(k)) {
                break;
            }
            if (!awaitSends(k)) {
                break;
            }
            if (c.check()) {
                DataPattern.fill(r.buffer, source, size - 1, k, salt, 0);
            }
            r.buffer.set(ValueLayout.JAVA_BYTE, source + size - 1, (byte) (k + 1));
            long t = System.nanoTime();
            if (byDuration && t >= runEndNanos) {
                break;
            }
            recordPost(k, t);
            wr.wrId = k;
            r.qps[0].postSend(wr);
            if (initiator && !awaitMarker(k)) {
                k++;
                break;
            }
            k++;
            end = System.nanoTime();
        }
        long count = initiator ? Math.min(k, repliesSeen) : k;
        finish(k, byDuration);
        return stats(size, count, start, end);
    }

    /** Spins on the last byte of our target region until it holds message k's marker. */
    private boolean awaitMarker(long k) {
        long marker = r.layout.targetOffset(0) + size - 1;
        byte expected = (byte) (k + 1);
        long lastProgress = System.nanoTime();
        while ((byte) BYTE.getVolatile(r.buffer, marker) != expected) {
            int work = pollSends();
            long now = System.nanoTime();
            if (work > 0) {
                lastProgress = now;
            } else if (!idle(now, lastProgress, "the peer's WRITE")) {
                return false;
            }
        }
        repliesSeen = k + 1;
        if (c.check()) {
            long bad = DataPattern.verify(r.buffer, r.layout.targetOffset(0), size - 1, k, peerSalt, 0);
            if (bad < 0) {
                tally.ok(CheckTally.Item.WRITE);
            } else {
                tally.fail("WRITE " + k + " differs at byte " + bad);
            }
        }
        return true;
    }
}
