package org.jrdma.tools.perf;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.tools.CqWaiter;
import org.jrdma.tools.Progress;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.VerbsException;

/**
 * The bandwidth tests after the handshake, with perftest's synchronisations (write_bw.c,
 * read_bw.c, atomic_bw.c, send_bw.c):
 *
 * <ul>
 * <li>WRITE/READ/atomics, one direction: the client runs every size and prints its rows; the
 * server only waits — one key exchange when the client is done, the report exchange, and it
 * prints the client's (last) row.
 * <li>SEND, one direction: the receiver posts its receives, a key exchange keeps the client from
 * sending before that, both measure and print their own rows (with {@code -a}, another key
 * exchange after each size).
 * <li>{@code -b}: a key exchange before each size (and after it, with {@code -a}), then both sides
 * swap reports and print the sum.
 * <li>Then the closing exchange (a key exchange and {@code "done"}).
 * </ul>
 */
final class BwRun {
    private static final long GIVE_UP_NANOS = 2_000_000_000L;
    /** What a data loop that stopped making progress most likely means. */
    static final String STALLED = ": the peer stopped — it ended (do both sides run the same test, -n, -q and -s?), was killed"
            + " or stopped, or the path to it is down";
    /** How often a drain sleeping on events (-e) looks whether the out-of-band step is over. */
    private static final long DRAIN_CHECK_NANOS = 10_000_000L;
    private final PerfSession s;
    private final PerfConfig c;
    private final PrintWriter out;
    private final CheckTally tally;
    private final AllocationMeter meter;

    BwRun(PerfSession s, CheckTally tally) {
        this.s = s;
        this.c = s.c;
        this.out = s.out;
        this.tally = tally;
        this.meter = new AllocationMeter(c.reportAlloc());
    }

    private boolean passiveServer() {
        return c.isServer() && !c.bidirectional() && c.verb() != Verb.SEND;
    }

    List<ResultRow> run() {
        out.println(Banner.RESULT_LINE);
        out.println(BwTable.header(c.reportGbits()));
        out.flush();
        return passiveServer() ? waitForClient() : measure();
    }

    /** The server of a one-sided test: its QPs serve the client's operations while it waits over TCP. */
    private List<ResultRow> waitForClient() {
        double alloc = measurePassive();
        BwReport client = s.exchange.reports(BwReport.EMPTY).validated();
        out.println(BwTable.row(client, c.reportGbits()));
        if (c.check()) {
            TargetCheck.verify(s.res, c.verb(), client, c.qps(), s.cycleBuffer, DataPattern.CLIENT_SALT, s.mtu.bytes(), tally);
        }
        s.closeExchange();
        out.println(Banner.RESULT_LINE);
        return List.of(ResultRow.bw(client, alloc));
    }

    /**
     * Waits for the client's "end of the test" and returns this process's allocation per
     * operation. The server has no loop of its own (its engine serves the requests), so it
     * watches its QPs' received packets and starts a second meter when the client's warm-up and
     * half of its run have arrived: the steady state, as on the active side. When the client
     * was done before the server looked (a short run), the whole wait is measured instead. This
     * thread is not counted: it only waits on TCP (the engine thread does the RDMA work).
     */
    private double measurePassive() {
        int packetsPerOp = c.verb() == Verb.WRITE ? Math.max(1, (s.sizes[0] + s.mtu.bytes() - 1) / s.mtu.bytes()) : 1;
        boolean known = meter.supported() && s.sizes.length == 1 && !c.byDuration();
        AllocationMeter whole = new AllocationMeter(meter.supported()).excludingCurrentThread();
        AllocationMeter steady = new AllocationMeter(meter.supported()).excludingCurrentThread();
        whole.start();
        long markAt = ((long) c.warmup() + c.iters() / 2) * c.qps() * packetsPerOp;
        long atMark = -1;
        if (known) {
            long seen = received();
            long deadline = System.nanoTime() + c.timeout().toNanos();
            PeerWatch peer = new PeerWatch(s.exchange::peerClosed, c.cmExchange(), System.nanoTime());
            long lastProgress = System.nanoTime();
            while (seen < markAt && System.nanoTime() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
                long now = System.nanoTime();
                long before = seen;
                seen = received();
                if (seen > before) {
                    lastProgress = now;
                }
                peer.check(now, lastProgress, "request packets served", seen); // a killed client sends nothing more
            }
            if (seen < markAt + (long) c.iters() * c.qps() * packetsPerOp / 4) { // not already (nearly) over
                steady.start();
                atMark = seen;
            }
        }
        s.sync("end of the test");
        if (!meter.supported()) {
            return Double.NaN;
        }
        long total = received();
        if (atMark >= 0 && total > atMark + packetsPerOp) {
            long bytes = steady.stop();
            return (double) bytes / ((total - atMark) / packetsPerOp);
        }
        long ops = (long) (c.warmup() + c.iters()) * c.qps();
        return (double) whole.stop() / ops;
    }

    /** Request packets this side's QPs have received since they were created. */
    private long received() {
        long n = 0;
        for (org.jrdma.verbs.QueuePair qp : s.res.qps) {
            n += qp.counters().getOrDefault("rcvd_packets", 0L);
        }
        return n;
    }

    /**
     * --run_infinitely (one-sided tests, the sender): one run without end, and at every -D
     * interval the row of what completed in it — perftest's run_iter_bw_infinitely prints one
     * every -D seconds from its alarm the same way. Returns never: the process is killed (a
     * failed completion still ends it, exit 1).
     */
    private void runInfinitely(BwSender sender, CqWaiter waiter, int size, long intervalNanos) {
        sender.begin(size, c.iters(), Long.MAX_VALUE / 4, c.cqMod());
        long timeout = c.timeout().toNanos();
        long lastProgress = System.nanoTime();
        long next = -1;
        while (true) {
            long now = System.nanoTime();
            int work = sender.doWork(now);
            if (next < 0 && sender.postedSoFar() > 0) {
                sender.markInterval(now);
                next = now + intervalNanos;
            }
            if (next >= 0 && now >= next) {
                BwReport interval = sender.intervalReport(now, c.reportGbits());
                progress.print(() -> out.println(BwTable.row(interval, c.reportGbits())));
                next += intervalNanos;
            }
            if (work > 0) {
                lastProgress = now;
                continue;
            }
            if (now - lastProgress > timeout) {
                throw new VerbsException(Errno.ETIMEDOUT, "no completion within " + c.timeout().toMillis() + " ms" + STALLED);
            }
            waiter.idle(next >= 0 ? Math.min(next, lastProgress + timeout) : lastProgress + timeout);
        }
    }

    private List<ResultRow> measure() {
        boolean send = c.verb() == Verb.SEND;
        BwSender sender = !c.isServer() || c.bidirectional() ? new BwSender(s.res, c, s.peers, s.cycleBuffer, tally) : null;
        BwReceiver receiver = send && (c.isServer() || c.bidirectional()) ? new BwReceiver(s.res, c, c.rxDepth(), tally) : null;
        CqWaiter waiter = new CqWaiter(s.res.channel, s.res.sendCq, s.res.recvCq);
        List<ResultRow> rows = new ArrayList<>();
        long duration = s.durationNanos();
        // a long run (-D, -a, --run_infinitely) shows one line in place on a terminal, nothing when piped
        progress = c.byDuration() || c.all() ? Progress.start(out, clock -> new ProgressLine(clock,
                () -> currentSize, () -> sender != null ? sender.postedSoFar() : receiver.received(), c.reportGbits(), true))
                : Progress.OFF;
        try {
            return measure(sender, receiver, waiter, rows, duration);
        } finally {
            progress.close();
        }
    }

    /** perf's progress line (or OFF), and the size it reports. */
    private Progress progress = Progress.OFF;
    private volatile int currentSize;

    private List<ResultRow> measure(BwSender sender, BwReceiver receiver, CqWaiter waiter, List<ResultRow> rows, long duration) {
        boolean send = c.verb() == Verb.SEND;
        if (sender != null && !send && c.extras().performWarmUp()) {
            // perftest's perform_warm_up (write_bw, read_bw, atomic_bw): one send queue's worth per
            // QP — tx_depth WRs, or one post list — posted and completed before the measured run;
            // one-sided, so the peer has nothing to do for it
            int warm = c.postList() == 1 ? c.txDepth() : c.postList();
            sender.begin(s.sizes[0], warm, 0, c.cqMod());
            SteadyAllocation unused = new SteadyAllocation(meter);
            unused.begin(0);
            loop(sender, receiver, waiter, 0, unused);
        }
        if (c.extras().runInfinitely()) {
            currentSize = s.sizes[0];
            runInfinitely(sender, waiter, s.sizes[0], duration); // until the process is killed, as perftest's
        }
        for (int size : s.sizes) {
            currentSize = size;
            if (c.warmup() > 0) {
                // --warmup: the same run, shorter and unreported, so that the measured one finds
                // the data path compiled (both sides run it: a SEND receiver expects its messages)
                if (receiver != null) {
                    receiver.begin(size, c.warmup(), 0);
                }
                if (sender != null) {
                    sender.begin(size, c.warmup(), 0, c.cqMod());
                }
                if (send || c.bidirectional()) {
                    s.sync("before the warm-up");
                }
                SteadyAllocation unused = new SteadyAllocation(meter);
                unused.begin(0);
                loop(sender, receiver, waiter, 0, unused);
            }
            if (receiver != null) {
                receiver.begin(size, c.iters(), duration);
            }
            if (sender != null) {
                sender.begin(size, c.iters(), duration, c.cqMod());
            }
            if (send || c.bidirectional()) {
                s.sync("before the test");
            }
            if (receiver != null) {
                receiver.startClock(System.nanoTime());
            }
            SteadyAllocation allocation = new SteadyAllocation(meter);
            allocation.begin(duration > 0 ? 0 : (long) c.iters() * c.qps());
            loop(sender, receiver, waiter, duration, allocation);
            long ops = sender != null ? sender.iterations() : receiver.received();
            double alloc = allocation.perOperation(ops);
            if (receiver != null && receiver.received() < receiver.expected() && !c.byDuration()) {
                long lost = receiver.expected() - receiver.received();
                progress.print(() -> out.println(" " + lost + " of " + receiver.expected() + " messages were lost ("
                        + c.connection() + " does not retransmit)"));
            }
            if ((send || c.bidirectional()) && c.all()) {
                s.sync("after the test");
            }
            BwReport mine = sender != null ? sender.report(c.reportGbits()) : receiver.report(c.reportGbits());
            BwReport row = mine;
            if (c.bidirectional()) {
                BwReport theirs = draining(receiver, waiter, () -> s.exchange.reports(mine)).validated();
                row = mine.plus(theirs);
                if (c.check()) {
                    TargetCheck.verify(s.res, c.verb(), theirs, c.qps(), s.cycleBuffer,
                            c.isServer() ? DataPattern.CLIENT_SALT : DataPattern.SERVER_SALT, s.mtu.bytes(), tally);
                }
            }
            BwReport printed = row;
            progress.print(() -> out.println(BwTable.row(printed, c.reportGbits())));
            rows.add(ResultRow.bw(row, alloc));
        }
        progress.close();
        out.println(Banner.RESULT_LINE);
        if (!c.isServer() && !c.bidirectional() && c.verb() != Verb.SEND) {
            s.sync("end of the test");
            s.exchange.reports(rows.getLast().bw());
        }
        draining(receiver, waiter, () -> {
            s.endConversation();
            return null;
        });
        s.disconnect(); // -R: only now, since the disconnect flushes the receives a drain reposts
        return rows;
    }

    /**
     * Runs an out-of-band step; after a -D run with a receiver, on another thread while this one
     * keeps the receiver draining (see {@link BwReceiver}): the peer's next message is how it says
     * that its sender is done, and until then its messages must find receives. The step keeps
     * its own deadlines; the drain ends with it.
     */
    private <T> T draining(BwReceiver receiver, CqWaiter waiter, java.util.function.Supplier<T> step) {
        if (receiver == null || !c.byDuration()) {
            return step.get();
        }
        java.util.concurrent.CompletableFuture<T> result = new java.util.concurrent.CompletableFuture<>();
        Thread exchange = Thread.ofPlatform().daemon().name("jrdma-perf-exchange").start(() -> {
            try {
                result.complete(step.get());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        try {
            while (!result.isDone()) {
                if (receiver.doWork(System.nanoTime()) == 0) {
                    waiter.idle(System.nanoTime() + DRAIN_CHECK_NANOS); // -e: wake to see whether the step is over
                }
            }
        } catch (RuntimeException e) {
            exchange.interrupt(); // our own failure comes first; the exchange stops at its next wait
            throw e;
        }
        try {
            return result.join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }

    /** Runs the agents until both are done; nothing here allocates. */
    private void loop(BwSender sender, BwReceiver receiver, CqWaiter waiter, long duration, SteadyAllocation allocation) {
        long timeout = c.timeout().toNanos();
        boolean unreliable = c.connection() != QpType.RC;
        long start = System.nanoTime();
        long lastProgress = start;
        PeerWatch peer = new PeerWatch(s.exchange::peerClosed, c.cmExchange(), start); // a killed sender sends nothing more
        long runEnd = duration > 0 ? start + duration : Long.MAX_VALUE;
        while (true) {
            boolean senderDone = sender == null || sender.done();
            boolean receiverDone = receiver == null || receiver.done();
            if (senderDone && receiverDone) {
                return;
            }
            long now = System.nanoTime();
            int work = 0;
            if (!senderDone) {
                work += sender.doWork(now);
            }
            if (receiver != null) {
                work += receiver.doWork(now); // done, it still drains while our sender finishes (-b -D)
            }
            if (work > 0) {
                lastProgress = now;
                allocation.progress(sender != null ? sender.postedSoFar() : receiver.received());
                continue;
            }
            peer.check(now, lastProgress, receiver != null ? "messages received" : null,
                    receiver != null ? receiver.received() : 0);
            // UC/UD drop what finds no receive: once messages flow, a receiver idle for GIVE_UP has lost the rest.
            long idleLimit = unreliable && receiver != null && receiver.received() > 0 ? Math.min(timeout, GIVE_UP_NANOS) : timeout;
            if (now - lastProgress > idleLimit) {
                if (!receiverDone && unreliable && senderDone) {
                    receiver.giveUp();
                    continue;
                }
                throw new VerbsException(Errno.ETIMEDOUT, "no completion within " + c.timeout().toMillis() + " ms"
                        + (sender != null ? " (sender done: " + senderDone + ")" : "")
                        + (receiver != null ? " (received " + receiver.received() + ")" : "") + STALLED);
            }
            // the wait ends at the idle limit: a sleep on events (-e) to the whole timeout would skip
            // GIVE_UP; and at the -D deadline while it is ahead, not after (that would spin)
            // and at the next look at the peer (-e sleeps, else it would not look)
            long wake = Math.min(lastProgress + idleLimit, peer.nextLook());
            waiter.idle(now < runEnd ? Math.min(wake, runEnd) : wake);
        }
    }
}
