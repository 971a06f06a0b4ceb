package org.jrdma.tools.perf;

import org.jrdma.bootstrap.KeyMessage;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;

/**
 * send_lat's ping-pong (perftest's run_iter_lat_send): the client SENDs message {@code k} and
 * waits for the server's message {@code k}; the server waits for message {@code k} and answers
 * with its own. Both time their posts, so both print a row; latency is half the round trip.
 * Receives are posted before the synchronisation that precedes each size, and reposted as they
 * complete, never more than the messages still to come.
 */
final class SendLatency extends LatencyLoop {
    private final boolean ud;
    private final RecvWorkRequest rwr = new RecvWorkRequest();
    private final Sge rsge = new Sge();
    private final WorkCompletion[] rwcs = new WorkCompletion[8];
    private final int rxDepth;
    private int size;
    private int grh;
    private int stride;
    private int slots;
    private long expected;
    private long postedRecv;
    private long recvsDone;

    SendLatency(PerfResources r, PerfConfig c, KeyMessage peer, int rxDepth, CheckTally tally) {
        super(r, c, peer, tally);
        this.ud = c.connection() == QpType.UD;
        this.rxDepth = rxDepth;
        for (int i = 0; i < rwcs.length; i++) {
            rwcs[i] = new WorkCompletion();
        }
        rwr.sg(rsge);
    }

    /**
     * perftest's run_iter_lat_send: one SEND in cq_mod is signaled (and the last), and the
     * sender waits for that completion only; --check signals every SEND, because its buffer is
     * refilled for the next message only once the previous one is complete.
     */
    static int signalEvery(PerfConfig c) {
        return c.check() ? 1 : c.cqMod();
    }

    /**
     * The send queue send_lat needs: an unsignaled SEND keeps its slot until its ACK comes,
     * and nothing says when that is — the peer may hold its ACK (a soft responder sending
     * from its device thread while the application sleeps with {@code -e}, up to 1 ms), and
     * the network may delay or lose it (a later ACK then covers it). What bounds the queue is
     * the wait for each signaled SEND's completion, which retires every SEND before it: at most
     * {@link #signalEvery} are ever outstanding. ibv_create_qp may give more than asked for,
     * and a NIC rounds its queue up as well.
     */
    static int sendQueueDepth(PerfConfig c) {
        return Math.max(c.txDepth(), signalEvery(c));
    }

    /** Posts the receives of a size; call before the synchronisation. */
    void postReceives(int size, long iters, boolean byDuration) {
        this.size = size;
        this.grh = ud ? BufferLayout.UD_GRH : 0;
        this.stride = BufferLayout.receiveStride(size, ud);
        this.slots = r.layout.receiveSlots(size, ud, rxDepth);
        this.expected = byDuration ? Long.MAX_VALUE : iters;
        this.postedRecv = 0;
        this.recvsDone = 0;
        long n = Math.min(Math.min(rxDepth, slots), expected);
        for (long i = 0; i < n; i++) {
            postRecv();
        }
    }

    private void postRecv() {
        rsge.set(r.receiveAddr(0) + (postedRecv % slots) * stride, size + grh, r.mr.lkey());
        rwr.wrId = postedRecv;
        r.qps[0].postRecv(rwr);
        postedRecv++;
    }

    LatencyStats run(long iters, long durationNanos) {
        boolean byDuration = durationNanos > 0;
        prepare(iters, byDuration);
        long limit = byDuration ? Long.MAX_VALUE : iters;
        sge.set(r.localAddr(0), size, r.mr.lkey());
        wr.opcode = WrOpcode.SEND;
        wr.sendFlags = sendFlags(size);
        if (ud) {
            wr.ud(r.ahs[0], peer.qpn(), QpConnector.QKEY);
        }
        boolean initiator = !c.isServer();
        int signalEvery = signalEvery(c);
        int unsignaledFlags = wr.sendFlags & ~org.jrdma.verbs.SendFlags.SIGNALED;
        int signaledFlags = unsignaledFlags | org.jrdma.verbs.SendFlags.SIGNALED;
        long signaled = 0;
        long start = System.nanoTime();
        runEndNanos = byDuration ? start + durationNanos : Long.MAX_VALUE;
        long k = 0;
        long end = start;
        while (k < limit) {
            progress(k);
            if (!initiator && !awaitReceives(k + 1)) {
                break;
            }
            if (c.check()) {
                DataPattern.fill(r.buffer, r.layout.localOffset(0), size, k, salt, 0);
            }
            long t = System.nanoTime();
            if (byDuration && t >= runEndNanos) {
                break;
            }
            boolean signal = (k + 1) % signalEvery == 0 || k + 1 == limit;
            wr.sendFlags = signal ? signaledFlags : unsignaledFlags;
            recordPost(k, t);
            wr.wrId = k;
            r.qps[0].postSend(wr);
            if (signal && !awaitSends(++signaled)) {
                k++;
                break;
            }
            if (initiator && !awaitReceives(k + 1)) {
                k++;
                break;
            }
            k++;
            end = System.nanoTime();
        }
        long count = initiator ? Math.min(k, recvsDone) : k;
        finish(signaled, byDuration); // the signaled completions, the last one included
        return stats(size, count, start, end);
    }

    /**
     * Polls the receive CQ only, as perftest does: the send CQ is polled after a signaled post
     * (an empty poll runs an engine pass, and a pass here would send the held ACK ahead of the
     * answer about to be posted).
     */
    private boolean awaitReceives(long n) {
        long lastProgress = System.nanoTime();
        while (recvsDone < n) {
            int work = pollOther();
            long now = System.nanoTime();
            if (work > 0) {
                lastProgress = now;
            } else if (!idle(now, lastProgress, "the peer's message")) {
                return false;
            }
        }
        return true;
    }

    @Override
    protected int pollOther() {
        int n = r.recvCq.poll(rwcs, rwcs.length);
        for (int i = 0; i < n; i++) {
            WorkCompletion wc = rwcs[i];
            if (wc.status != WcStatus.SUCCESS) {
                throw CompletionFailure.of("the receive of message " + recvsDone, wc, r.sendCq);
            }
            long j = recvsDone;
            if (wc.byteLen != size + grh) {
                tally.fail("message " + j + " has " + Integer.toUnsignedString(wc.byteLen) + " bytes, expected " + (size + grh));
            } else if (c.check()) {
                long offset = r.layout.receiveOffset(0) + (wc.wrId % slots) * stride + grh;
                long bad = DataPattern.verify(r.buffer, offset, size, j, peerSalt, 0);
                if (bad < 0) {
                    tally.ok(CheckTally.Item.MESSAGE);
                } else {
                    tally.fail("message " + j + " differs at byte " + bad);
                }
            }
            recvsDone = j + 1;
            if (postedRecv < expected) {
                postRecv();
            }
        }
        return n;
    }
}
