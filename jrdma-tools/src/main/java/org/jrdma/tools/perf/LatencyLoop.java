package org.jrdma.tools.perf;

import org.jrdma.bootstrap.KeyMessage;
import org.jrdma.tools.CqWaiter;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;

/**
 * What the three latency tests share: one QP (QP 0), one outstanding operation, a post time per
 * iteration, and waits that poll (or with {@code -e} sleep) under two deadlines — the timeout
 * since the last progress, and with {@code -D} the end of the run. write_lat, read_lat and
 * atomic_lat signal every WR and post the next one only after the previous one completed;
 * send_lat signals one in cq_mod, as perftest does ({@link SendLatency}). The WR, SGE and
 * completion array are reused; the post-time array is sized before the run.
 */
abstract class LatencyLoop {
    /** A wait ended because the {@code -D} run is over. */
    static final long RUN_OVER = -1;

    protected final PerfResources r;
    protected final PerfConfig c;
    protected final KeyMessage peer;
    protected final CheckTally tally;
    protected final CqWaiter waiter;
    protected final long timeoutNanos;
    protected final int salt;
    protected final int peerSalt;
    protected final SendWorkRequest wr = new SendWorkRequest();
    protected final Sge sge = new Sge();
    protected final WorkCompletion[] wcs = new WorkCompletion[8];
    protected long sendsDone;
    protected long[] postNanos;
    protected long runEndNanos = Long.MAX_VALUE;
    /** Whether the out-of-band peer has gone (null: not watched). */
    private PeerWatch peerWatch;
    /** The steady-state allocation of each run (null without --report-alloc). */
    private SteadyAllocation allocation;
    private double allocationPerOp = Double.NaN;

    LatencyLoop(PerfResources r, PerfConfig c, KeyMessage peer, CheckTally tally) {
        this.r = r;
        this.c = c;
        this.peer = peer;
        this.tally = tally;
        this.waiter = new CqWaiter(r.channel, r.sendCq, r.recvCq);
        this.timeoutNanos = c.timeout().toNanos();
        this.salt = c.isServer() ? DataPattern.SERVER_SALT : DataPattern.CLIENT_SALT;
        this.peerSalt = c.isServer() ? DataPattern.CLIENT_SALT : DataPattern.SERVER_SALT;
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
        wr.sg(sge);
    }

    /** Sizes the post-time array (not with -D) and resets the counters; call before measuring. */
    protected void prepare(long iters, boolean byDuration) {
        postNanos = byDuration ? null : new long[Math.toIntExact(iters)];
        sendsDone = 0;
        allocationPerOp = Double.NaN;
        if (allocation != null) {
            allocation.begin(byDuration ? 0 : iters); // after the arrays above: they are the run's
        }
    }

    /** Watches the out-of-band peer while idle: a killed peer ends the run at once (see PeerWatch). */
    final void watchPeer(PeerWatch watch) {
        this.peerWatch = watch;
    }

    /** Measures each run's steady-state allocation with {@code a} (for --report-alloc). */
    final void measureAllocationWith(SteadyAllocation a) {
        this.allocation = a;
    }

    /** The iterations done so far (read by the progress line's thread: a stale count is fine). */
    long doneSoFar;

    /** Call once per iteration with the iterations done. */
    protected final void progress(long done) {
        doneSoFar = done;
        if (allocation != null) {
            allocation.progress(done);
        }
    }

    /** Bytes allocated per operation in the last run's steady state (NaN when not measured). */
    final double allocationPerOp() {
        return allocationPerOp;
    }

    /** Every WR of a latency test is signaled; small SENDs and WRITEs go inline. */
    protected int sendFlags(int size) {
        int flags = SendFlags.SIGNALED;
        if (size <= c.inlineSize() && (c.verb() == Verb.SEND || c.verb() == Verb.WRITE)) {
            flags |= SendFlags.INLINE;
        }
        return flags;
    }

    protected final void recordPost(long k, long nanos) {
        if (postNanos != null) {
            postNanos[(int) k] = nanos;
        }
    }

    /** Reaps send completions; returns how many. */
    protected final int pollSends() {
        int n = r.sendCq.poll(wcs, wcs.length);
        for (int i = 0; i < n; i++) {
            WorkCompletion wc = wcs[i];
            if (wc.status != WcStatus.SUCCESS) {
                throw CompletionFailure.of("the " + wr.opcode + " of iteration " + wc.wrId, wc, r.recvCq);
            }
            onSendCompletion(wc);
            sendsDone++;
        }
        return n;
    }

    /** A hook for READ and atomic results. */
    protected void onSendCompletion(WorkCompletion wc) {
    }

    /** Progress besides send completions (receives, memory); returns the work done. */
    protected int pollOther() {
        return 0;
    }

    /** Polls until {@code sendsDone ≥ n}; false when the -D run ended first. */
    protected final boolean awaitSends(long n) {
        long lastProgress = System.nanoTime();
        while (sendsDone < n) {
            int work = pollSends() + pollOther();
            long now = System.nanoTime();
            if (work > 0) {
                lastProgress = now;
            } else if (!idle(now, lastProgress, "a send completion")) {
                return false;
            }
        }
        return true;
    }

    /**
     * The end of a run. By iterations, every operation posted must complete. After a -D run what
     * is still outstanding is left to the QP's destruction, as perftest leaves it: the peer ended
     * its own run at its own deadline, a moment apart, and may not answer — write_lat has no
     * closing exchange, so its QP may be gone already, and the wait would end in a transport
     * retry error (or never, for an RNR with rnr_retry 7).
     */
    protected final void finish(long posted, boolean byDuration) {
        runEndNanos = Long.MAX_VALUE;
        if (!byDuration) {
            awaitSends(posted);
        }
    }

    /**
     * After a pass without work: false if the run is over; throws past the timeout; else waits a
     * little. {@code waitingFor} is a constant: nothing is built unless the wait fails.
     */
    protected final boolean idle(long now, long lastProgress, String waitingFor) {
        if (now >= runEndNanos) {
            return false;
        }
        if (now - lastProgress > timeoutNanos) {
            throw new VerbsException(Errno.ETIMEDOUT, "no progress within " + c.timeout().toMillis() + " ms waiting for "
                    + waitingFor + BwRun.STALLED);
        }
        long wake = Math.min(lastProgress + timeoutNanos, runEndNanos);
        if (peerWatch != null) {
            peerWatch.check(now, lastProgress, waitingFor, -1);
            wake = Math.min(wake, peerWatch.nextLook());
        }
        waiter.idle(wake);
        return true;
    }

    /** With -H, the last run's sorted samples (microseconds), else null. */
    double[] histogramUsec;

    /** The row of a run of {@code count} iterations that took from {@code start} to {@code end}. */
    protected final LatencyStats stats(int size, long count, long startNanos, long endNanos) {
        histogramUsec = c.extras().histogram() && postNanos != null
                ? LatencyStats.sortedSamplesUsec(postNanos, (int) count, c.test().rttFactor()) : null;
        if (allocation != null) {
            allocationPerOp = allocation.perOperation(count); // before the statistics sort a copy of the samples
        }
        if (postNanos == null) {
            return LatencyStats.fromDuration(size, count, endNanos - startNanos, c.test().rttFactor());
        }
        return LatencyStats.fromPostTimes(size, count, postNanos, (int) count, c.test().rttFactor());
    }
}
