package org.jrdma.tools.perf;

import org.jrdma.verbs.Errno;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.WcFlags;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;

/**
 * The receiving side of send_bw (perftest's run_iter_bw_server), as an agent. Each QP keeps
 * {@code rx-depth} receives posted (with {@code --check}, no more than its receive slots), but
 * never more than the messages still expected, so that none is left over when the next size of
 * {@code -a} starts. A receive's WR id is its offset in the buffer; its QP comes from the
 * completion's QP number.
 *
 * <p>With {@code --check} the sender numbers every message in its immediate data: a message is
 * checked against the pattern of that number, numbers must rise on each QP, and on UC/UD a gap
 * counts as lost messages (those transports drop a message that finds no receive) while on RC it
 * is a failure. A QP is complete when its last number arrived.
 *
 * <p>The measurement runs from the first receive completion to the last, as perftest's server
 * does; it reports no peak. Without {@code --check}, a UC/UD receiver that saw nothing for a
 * while gives up with what arrived ({@link #giveUp}).
 *
 * <p>With {@code -D} the measurement ends at this side's deadline, but the sender's does not end
 * at the same instant, and what it posted before its own is still on the way — with
 * {@code --check} it waits for every completion, which on RC needs a receive for each message
 * (rnr_retry 7 retries forever). So the receiver keeps <em>draining</em> after its deadline —
 * polling, reposting, checking, not counting — until the sender says it is done over the
 * out-of-band channel ({@link BwRun}); UC/UD lose nothing to that wait, which is bounded by the
 * exchange's own deadline.
 */
final class BwReceiver {
    private final PerfResources r;
    private final int qps;
    private final boolean ud;
    private final boolean reliable;
    private final boolean check;
    private final CheckTally tally;
    private final int peerSalt;
    private final int rxDepth;
    private final RecvWorkRequest rwr = new RecvWorkRequest();
    private final Sge sge = new Sge();
    private final WorkCompletion[] wcs = new WorkCompletion[32];
    private final long[] postedRecv;
    private final long[] nextSeq;

    private int size;
    private int grh;
    private int stride;
    private int slots;
    private long expectedPerQp;
    private long expectedTotal;
    private long total;
    private long lost;
    private int completeQps;
    private long firstNanos;
    private long lastNanos;
    private long stopAtNanos;
    private long startedNanos;
    private boolean byDuration;
    private boolean stopped;

    BwReceiver(PerfResources r, PerfConfig c, int rxDepth, CheckTally tally) {
        this.r = r;
        this.qps = c.qps();
        this.ud = c.connection() == QpType.UD;
        this.reliable = c.connection() == QpType.RC;
        this.check = c.check();
        this.tally = tally;
        this.peerSalt = c.isServer() ? DataPattern.CLIENT_SALT : DataPattern.SERVER_SALT;
        this.rxDepth = rxDepth;
        this.postedRecv = new long[qps];
        this.nextSeq = new long[qps];
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
        rwr.sg(sge);
    }

    /** Posts the receives for a run of {@code itersPerQp} messages per QP (or, with {@code durationNanos} > 0, for that long). */
    void begin(int size, long itersPerQp, long durationNanos) {
        this.size = size;
        this.grh = ud ? BufferLayout.UD_GRH : 0;
        this.stride = BufferLayout.receiveStride(size, ud);
        this.slots = r.layout.receiveSlots(size, ud, rxDepth);
        int depth = check ? slots : rxDepth;
        this.byDuration = durationNanos > 0;
        this.stopAtNanos = durationNanos;
        this.expectedPerQp = byDuration ? Long.MAX_VALUE : itersPerQp;
        this.expectedTotal = byDuration ? Long.MAX_VALUE : itersPerQp * qps;
        java.util.Arrays.fill(postedRecv, 0);
        java.util.Arrays.fill(nextSeq, 0);
        total = 0;
        lost = 0;
        completeQps = 0;
        firstNanos = 0;
        lastNanos = 0;
        startedNanos = 0;
        stopped = false;
        for (int q = 0; q < qps; q++) {
            long n = Math.min(depth, expectedPerQp);
            for (long i = 0; i < n; i++) {
                post(q);
            }
        }
    }

    /** Starts the -D clock (at the synchronisation before the test). */
    void startClock(long now) {
        startedNanos = now;
    }

    private void post(int q) {
        long offset = r.layout.receiveOffset(q) + (postedRecv[q] % slots) * stride;
        sge.set(r.mr.addr() + offset, size + grh, r.mr.lkey());
        rwr.wrId = offset;
        r.qps[q].postRecv(rwr);
        postedRecv[q]++;
    }

    boolean done() {
        return stopped || total == expectedTotal || (check && !byDuration && completeQps == qps);
    }

    /** Polls, checks and reposts; past the -D deadline (or {@link #giveUp}) it still does, counting nothing. */
    int doWork(long now) {
        if (byDuration && !stopped && now - startedNanos >= stopAtNanos) {
            stopped = true;
        }
        int n = r.recvCq.poll(wcs, wcs.length);
        if (n == 0) {
            return 0;
        }
        long t = System.nanoTime();
        for (int i = 0; i < n; i++) {
            WorkCompletion wc = wcs[i];
            if (wc.status != WcStatus.SUCCESS) {
                throw CompletionFailure.of("the receive after " + total + " messages", wc, r.sendCq);
            }
            int q = r.qpIndex(wc.qpNum);
            if (q < 0) {
                throw new VerbsException(Errno.EIO, "a receive completed on QP 0x" + Integer.toHexString(wc.qpNum)
                        + ", which is not one of ours");
            }
            if (wc.byteLen != size + grh) {
                tally.fail("a message on QP " + q + " has " + Integer.toUnsignedString(wc.byteLen) + " bytes, expected "
                        + (size + grh));
            } else if (check) {
                checkMessage(q, wc);
            }
            if (!stopped) { // a drained message is checked and its receive reposted, but not counted
                if (total == 0) {
                    firstNanos = t;
                }
                total++;
                lastNanos = t;
            }
            if (postedRecv[q] < expectedPerQp) {
                post(q);
            }
        }
        return n;
    }

    /** The message's number is in its immediate data; it must be the next one (or, on UC/UD, a later one). */
    private void checkMessage(int q, WorkCompletion wc) {
        if ((wc.wcFlags & WcFlags.WITH_IMM) == 0) {
            tally.fail("message " + nextSeq[q] + " on QP " + q + " came without its number (immediate data): the peer does"
                    + " not run --check, and it must, on both sides");
            nextSeq[q]++;
            return;
        }
        long expected = nextSeq[q];
        long seq = expected + (wc.immData - (int) expected); // the 32-bit number, unwrapped around the expected one
        if (seq < expected || (seq > expected && reliable)) {
            tally.fail("QP " + q + " received message " + seq + " where " + expected + " was due");
        } else {
            lost += seq - expected;
            long bad = DataPattern.verify(r.buffer, wc.wrId + grh, size, seq, peerSalt, 0);
            if (bad < 0) {
                tally.ok(CheckTally.Item.MESSAGE);
            } else {
                tally.fail("message " + seq + " on QP " + q + " differs at byte " + bad);
            }
        }
        nextSeq[q] = Math.max(expected, seq + 1);
        if (seq + 1 == expectedPerQp) {
            completeQps++;
        }
    }

    /** UC/UD: stop waiting for messages that will not come. */
    void giveUp() {
        stopped = true;
    }

    /** Messages received in the measured part of the run. */
    long received() {
        return total;
    }

    long expected() {
        return expectedTotal;
    }

    /** From the first receive to the last; no peak. */
    BwReport report(boolean gbits) {
        return BwStats.report(size, total, null, null, null, 0, firstNanos, lastNanos, gbits);
    }
}
