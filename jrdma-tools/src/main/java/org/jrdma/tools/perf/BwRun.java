package org.jrdma.tools.perf;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
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
        meter.start();
        s.sync("end of the test");
        BwReport client = s.exchange.reports(BwReport.EMPTY).validated();
        double alloc = meter.perOperation(client.iters());
        out.println(BwTable.row(client, c.reportGbits()));
        if (c.check()) {
            TargetCheck.verify(s.res, c.verb(), client, c.qps(), s.cycleBuffer, DataPattern.CLIENT_SALT, tally);
        }
        s.closeExchange();
        out.println(Banner.RESULT_LINE);
        return List.of(ResultRow.bw(client, alloc));
    }

    private List<ResultRow> measure() {
        boolean send = c.verb() == Verb.SEND;
        BwSender sender = !c.isServer() || c.bidirectional() ? new BwSender(s.res, c, s.peers, s.cycleBuffer, tally) : null;
        BwReceiver receiver = send && (c.isServer() || c.bidirectional()) ? new BwReceiver(s.res, c, c.rxDepth(), tally) : null;
        CqWaiter waiter = new CqWaiter(s.res.channel, s.res.sendCq, s.res.recvCq);
        List<ResultRow> rows = new ArrayList<>();
        long duration = s.durationNanos();
        for (int size : s.sizes) {
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
            meter.start();
            loop(sender, receiver, waiter, duration);
            long ops = sender != null ? sender.iterations() : receiver.received();
            double alloc = meter.perOperation(ops);
            if (receiver != null && receiver.received() < receiver.expected() && !c.byDuration()) {
                long lost = receiver.expected() - receiver.received();
                out.println(" " + lost + " of " + receiver.expected() + " messages were lost (" + c.connection()
                        + " does not retransmit)");
            }
            if ((send || c.bidirectional()) && c.all()) {
                s.sync("after the test");
            }
            BwReport mine = sender != null ? sender.report(c.reportGbits()) : receiver.report(c.reportGbits());
            BwReport row = mine;
            if (c.bidirectional()) {
                BwReport theirs = s.exchange.reports(mine).validated();
                row = mine.plus(theirs);
                if (c.check()) {
                    TargetCheck.verify(s.res, c.verb(), theirs, c.qps(), s.cycleBuffer,
                            c.isServer() ? DataPattern.CLIENT_SALT : DataPattern.SERVER_SALT, tally);
                }
            }
            out.println(BwTable.row(row, c.reportGbits()));
            out.flush();
            rows.add(ResultRow.bw(row, alloc));
        }
        out.println(Banner.RESULT_LINE);
        if (!c.isServer() && !c.bidirectional() && c.verb() != Verb.SEND) {
            s.sync("end of the test");
            s.exchange.reports(rows.getLast().bw());
        }
        s.closeExchange();
        return rows;
    }

    /** Runs the agents until both are done; nothing here allocates. */
    private void loop(BwSender sender, BwReceiver receiver, CqWaiter waiter, long duration) {
        long timeout = c.timeout().toNanos();
        boolean unreliable = c.connection() != QpType.RC;
        long start = System.nanoTime();
        long lastProgress = start;
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
            if (!receiverDone) {
                work += receiver.doWork(now);
            }
            if (work > 0) {
                lastProgress = now;
                continue;
            }
            // UC/UD drop what finds no receive: once messages flow, a receiver idle for GIVE_UP has lost the rest.
            long idleLimit = unreliable && receiver != null && receiver.received() > 0 ? Math.min(timeout, GIVE_UP_NANOS) : timeout;
            if (now - lastProgress > idleLimit) {
                if (!receiverDone && unreliable && senderDone) {
                    receiver.giveUp();
                    continue;
                }
                throw new VerbsException(Errno.ETIMEDOUT, "no completion within " + c.timeout().toMillis() + " ms"
                        + (sender != null ? " (sender done: " + senderDone + ")" : "")
                        + (receiver != null ? " (received " + receiver.received() + ")" : ""));
            }
            waiter.idle(Math.min(lastProgress + timeout, runEnd));
        }
    }
}
