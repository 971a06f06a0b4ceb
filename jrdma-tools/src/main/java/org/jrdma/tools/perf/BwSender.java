package org.jrdma.tools.perf;

import java.lang.foreign.ValueLayout;
import org.jrdma.bootstrap.KeyMessage;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;

/**
 * The posting side of a bandwidth test (perftest's run_iter_bw), as an agent: {@link #doWork}
 * posts what the queues allow and reaps completions, and returns how much it did.
 *
 * <ul>
 * <li>Iteration {@code k} goes to QP {@code k mod q} (round robin, strictly in order); {@code -n}
 * counts per QP, so a run has {@code n × q} iterations, as perftest reports.
 * <li>Up to {@code tx-depth} WRs are outstanding per QP (with {@code --check}, no more than the
 * slots they use). A WR is signaled every {@code cq-mod} WRs of its QP and at its QP's last; a
 * signaled completion retires every earlier WR of that QP.
 * <li>With {@code -l N} (perftest's post list) each post call hands a QP N WRs chained through
 * {@code next}, its next N iterations, once there is room for all N (QPs still take turns, a
 * list each); a QP's last list may be shorter (a warm-up not a multiple of N), and with
 * {@code --check} a list is at most as long as the slots allow.
 * <li>Timing: each post's time, and each signaled completion's, feed {@link BwStats}; with
 * {@code -D} the run stops posting at the deadline and counts what completed by then (with
 * {@code --check} it also waits for the rest, so the peer can check every byte).
 * <li>Nothing allocates per iteration: N WRs and SGEs (one without -l) are rewritten for every
 * post, the completion array is reused, the time arrays are sized before the run.
 * </ul>
 */
final class BwSender {
    private final PerfResources r;
    private final Verb verb;
    private final WrOpcode opcode;
    private final AtomicType atomicType;
    private final KeyMessage[] peers;
    private final int qps;
    private final int txDepth;
    private final int inline;
    private final int cycleBuffer;
    private final boolean check;
    private final CheckTally tally;
    private final int salt;
    private final int peerSalt;
    private final int postList;
    /** -N: no peak (the report gets no post times). */
    private final boolean noPeak;
    /** A list's WRs, each with its one SGE; chained per post as long as that list is. */
    private final SendWorkRequest[] wrs;
    private final Sge[] sges;
    private final WorkCompletion[] wcs = new WorkCompletion[32];
    private final long[] posted;
    private final long[] completed;

    private int size;
    private int stride;
    private int localSlots;
    private int remoteSlots;
    private int window;
    private int cqMod;
    private int listLength;
    /** The QP whose turn it is to post a list. */
    private int turn;
    private int flagsBase;
    private long perQp;
    private long total;
    private long nextK;
    private long completedTotal;
    private long measured;
    private long[] postNanos;
    private long[] doneIndex;
    private long[] doneNanos;
    private int dones;
    private long startNanos;
    private long endNanos;
    private long stopAtNanos;
    private boolean byDuration;
    private boolean stopped;
    private boolean started;

    BwSender(PerfResources r, PerfConfig c, KeyMessage[] peers, int cycleBuffer, CheckTally tally) {
        this.r = r;
        this.verb = c.verb();
        this.atomicType = c.atomicType();
        // --check numbers each SEND in its immediate data, so a UC/UD receiver knows which one
        // arrived even after a loss (both sides are jrdma then).
        this.opcode = switch (verb) {
            case SEND -> c.check() ? WrOpcode.SEND_WITH_IMM : WrOpcode.SEND;
            case WRITE -> WrOpcode.RDMA_WRITE;
            case READ -> WrOpcode.RDMA_READ;
            case ATOMIC -> c.atomicType().opcode();
        };
        this.peers = peers;
        this.qps = c.qps();
        this.txDepth = c.txDepth();
        this.noPeak = c.extras().noPeak();
        this.inline = c.inlineSize();
        this.cycleBuffer = cycleBuffer;
        this.check = c.check();
        this.tally = tally;
        this.salt = c.isServer() ? DataPattern.SERVER_SALT : DataPattern.CLIENT_SALT;
        this.peerSalt = c.isServer() ? DataPattern.CLIENT_SALT : DataPattern.SERVER_SALT;
        this.posted = new long[qps];
        this.completed = new long[qps];
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
        this.postList = Math.max(1, c.postList());
        this.wrs = new SendWorkRequest[postList];
        this.sges = new Sge[postList];
        for (int i = 0; i < postList; i++) {
            sges[i] = new Sge();
            wrs[i] = new SendWorkRequest().sg(sges[i]);
        }
    }

    /**
     * Prepares a run of {@code itersPerQp} iterations per QP, or (when {@code durationNanos} > 0)
     * of that long; allocates the time arrays now, outside the measured loop.
     */
    void begin(int size, long itersPerQp, long durationNanos, int cqModAsked) {
        this.size = verb == Verb.ATOMIC ? PerfTest.ATOMIC_BYTES : size;
        this.stride = BufferLayout.stride(this.size);
        this.localSlots = r.layout.localSlots(this.size);
        this.remoteSlots = BufferLayout.remoteSlots(this.size, cycleBuffer, check);
        this.window = check ? Math.min(txDepth, localSlots) : txDepth;
        // --check signals every WR, so that a run stopped by -D can wait for each one.
        this.cqMod = check ? 1 : Math.max(1, Math.min(cqModAsked, window));
        this.listLength = Math.min(postList, window);
        this.flagsBase = size <= inline && (verb == Verb.SEND || verb == Verb.WRITE) ? SendFlags.INLINE : 0;
        this.byDuration = durationNanos > 0;
        this.perQp = byDuration ? Long.MAX_VALUE : itersPerQp;
        this.total = byDuration ? Long.MAX_VALUE : itersPerQp * qps;
        this.stopAtNanos = durationNanos;
        java.util.Arrays.fill(posted, 0);
        java.util.Arrays.fill(completed, 0);
        nextK = 0;
        turn = 0;
        completedTotal = 0;
        measured = 0;
        dones = 0;
        stopped = false;
        started = false;
        startNanos = 0;
        endNanos = 0;
        if (byDuration) {
            postNanos = null;
            doneIndex = null;
            doneNanos = null;
        } else {
            int n = Math.toIntExact(total);
            postNanos = new long[n];
            int signaled = (int) Math.min(n, (long) n / cqMod + qps + 1);
            doneIndex = new long[signaled];
            doneNanos = new long[signaled];
        }
    }

    int cqMod() {
        return cqMod;
    }

    boolean done() {
        if (byDuration) {
            return stopped && (!check || completedTotal == nextK);
        }
        return completedTotal == total;
    }

    int doWork(long now) {
        int work = 0;
        if (byDuration && !stopped && started && now - startNanos >= stopAtNanos) {
            stopped = true;
            endNanos = now;
            measured = completedTotal;
        }
        if (!stopped) {
            work += postAll();
        }
        return work + reap();
    }

    /**
     * Posts lists while the QP whose turn it is has room for its next one. A WR's wr_id is its
     * iteration {@code k = seq × q + qp} (so a completion names its QP and sequence number), its
     * post time goes to {@code postNanos[k]}.
     */
    private int postAll() {
        int n = 0;
        while (nextK < total) {
            int q = turn;
            long seq = posted[q];
            int len = (int) Math.min(listLength, perQp - seq);
            if (len == 0) { // this QP is done (only when a run's QPs end unevenly, which they do not)
                turn = (q + 1) % qps;
                continue;
            }
            if (seq - completed[q] + len > window) {
                break;
            }
            post(q, seq, len);
            turn = (q + 1) % qps;
            n += len;
        }
        return n;
    }

    /** Posts iterations {@code seq … seq + len - 1} of QP {@code q} as one list. */
    private void post(int q, long seq, int len) {
        for (int j = 0; j < len; j++) {
            fill(wrs[j], sges[j], q, seq + j);
            wrs[j].next = j + 1 < len ? wrs[j + 1] : null;
        }
        long t = System.nanoTime();
        if (!started) {
            started = true;
            startNanos = t;
        }
        if (postNanos != null) {
            for (int j = 0; j < len; j++) {
                postNanos[(int) ((seq + j) * qps + q)] = t;
            }
        }
        r.qps[q].postSend(wrs[0]);
        posted[q] = seq + len;
        nextK += len;
    }

    private void fill(SendWorkRequest wr, Sge sge, int q, long seq) {
        long local = r.localAddr(q) + (seq % localSlots) * stride;
        long remote = peers[q].vaddr() + (seq % remoteSlots) * stride;
        int flags = flagsBase;
        if ((seq + 1) % cqMod == 0 || seq + 1 == perQp) {
            flags |= SendFlags.SIGNALED;
        }
        if (check) {
            prepareSlot(q, seq);
        }
        sge.set(local, size, r.mr.lkey());
        wr.wrId = seq * qps + q;
        wr.opcode = opcode;
        wr.sendFlags = flags;
        wr.immData = (int) seq;
        switch (verb) {
            case SEND -> {
                if (r.type == QpType.UD) {
                    wr.ud(r.ahs[q], peers[q].qpn(), QpConnector.QKEY);
                }
            }
            case WRITE, READ -> wr.rdma(remote, peers[q].rkey());
            case ATOMIC -> {
                if (atomicType == AtomicType.FETCH_AND_ADD) {
                    wr.atomic(peers[q].vaddr(), peers[q].rkey(), 1, 0);
                } else {
                    wr.atomic(peers[q].vaddr(), peers[q].rkey(), seq, seq + 1); // compare with seq, swap in seq + 1
                }
            }
        }
    }

    /** --check: the source gets message seq's pattern; a READ destination or atomic result is cleared first. */
    private void prepareSlot(int q, long seq) {
        long offset = r.layout.localOffset(q) + (seq % localSlots) * stride;
        switch (verb) {
            case SEND, WRITE -> DataPattern.fill(r.buffer, offset, size, seq, salt, 0);
            case READ, ATOMIC -> r.buffer.asSlice(offset, size).fill((byte) 0xA5);
        }
    }

    private int reap() {
        int n = r.sendCq.poll(wcs, wcs.length);
        if (n == 0) {
            return 0;
        }
        long now = System.nanoTime();
        for (int i = 0; i < n; i++) {
            WorkCompletion wc = wcs[i];
            if (wc.status != WcStatus.SUCCESS) {
                throw CompletionFailure.of("the " + opcode + " of iteration " + wc.wrId, wc, r.recvCq);
            }
            long k = wc.wrId;
            int q = (int) (k % qps);
            long seq = k / qps;
            if (check && verb.usesReadResources()) {
                for (long s = completed[q]; s <= seq; s++) {
                    verify(q, s);
                }
            }
            completedTotal += seq + 1 - completed[q];
            completed[q] = seq + 1;
            if (doneIndex != null && dones < doneIndex.length) {
                doneIndex[dones] = k;
                doneNanos[dones] = now;
                dones++;
            }
            if (!byDuration && completedTotal == total) {
                endNanos = now;
                measured = total;
            }
        }
        if (byDuration && stopped && check) {
            measured = completedTotal;
            endNanos = now;
        }
        return n;
    }

    private void verify(int q, long seq) {
        long offset = r.layout.localOffset(q) + (seq % localSlots) * stride;
        if (verb == Verb.READ) {
            long base = (seq % remoteSlots) * stride;
            long bad = DataPattern.verify(r.buffer, offset, size, DataPattern.READ_SOURCE, peerSalt, base);
            if (bad < 0) {
                tally.ok(CheckTally.Item.READ);
            } else {
                tally.fail("READ " + seq + " on QP " + q + " differs at byte " + bad);
            }
        } else {
            long original = r.buffer.get(ValueLayout.JAVA_LONG_UNALIGNED, offset);
            if (original == seq) {
                tally.ok(CheckTally.Item.ATOMIC_RESULT);
            } else {
                tally.fail(atomicType + " " + seq + " on QP " + q + " returned " + original + ", expected " + seq);
            }
        }
    }

    /** The row: perftest's average, message rate and peak over this run (with -N no peak: 0, as perftest's). */
    BwReport report(boolean gbits) {
        return BwStats.report(size, measured, noPeak ? null : postNanos, doneIndex, doneNanos, dones, startNanos,
                endNanos, gbits);
    }

    long iterations() {
        return measured;
    }

    private long markCompleted;
    private long markNanos;

    /** --run_infinitely: an interval starts now. */
    void markInterval(long now) {
        markCompleted = completedTotal;
        markNanos = now;
    }

    /** --run_infinitely: the row of what completed since the last mark (no peak, as perftest's), and a new mark. */
    BwReport intervalReport(long now, boolean gbits) {
        long done = completedTotal - markCompleted;
        BwReport r = BwStats.report(size, done, null, null, null, 0, markNanos, now, gbits);
        markInterval(now);
        return r;
    }

    /** Operations posted so far, all QPs together. */
    long postedSoFar() {
        return nextK;
    }
}
