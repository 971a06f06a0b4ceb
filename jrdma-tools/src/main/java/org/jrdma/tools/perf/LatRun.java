package org.jrdma.tools.perf;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.tools.Progress;

/**
 * The latency tests after the handshake, with perftest's synchronisations (send_lat.c,
 * write_lat.c, read_lat.c, atomic_lat.c):
 *
 * <ul>
 * <li>send_lat: for each size both sides post their receives, swap keys (so no SEND finds no
 * receive), ping-pong and print a row.
 * <li>write_lat: for each size both ping-pong by polling memory and print a row; no
 * synchronisation between sizes.
 * <li>read_lat / atomic_lat: the server goes straight to the closing exchange and waits there
 * while the client measures, prints its rows and closes.
 * </ul>
 *
 * <p>The latency tests of perftest "6.06" (Debian's 4.5-0.17, seen on the rxe lab) swap keys
 * four times before the test, one more than the bandwidth tests: send_lat's fourth is the
 * synchronisation after posting receives; write_lat, read_lat and atomic_lat do it once before
 * the first size ({@link #START_SYNC}). write_lat then ends without ctx_close_connection: no
 * closing key exchange and no "done", the sockets are just closed.
 */
final class LatRun {
    private final PerfSession s;
    private final PerfConfig c;
    private final PrintWriter out;
    private final CheckTally tally;
    private final AllocationMeter meter;

    LatRun(PerfSession s, CheckTally tally) {
        this.s = s;
        this.c = s.c;
        this.out = s.out;
        this.tally = tally;
        this.meter = new AllocationMeter(c.reportAlloc());
    }

    /** The fourth key exchange before a write_lat, read_lat or atomic_lat (send_lat's is "before the test"). */
    static final String START_SYNC = "before the latency test";

    List<ResultRow> run() {
        Verb verb = c.verb();
        if (verb != Verb.SEND) {
            // perftest 6.06 swaps keys a fourth time here; without it a perftest peer waits in
            // that read while we measure (write_lat: both sides stalled; read_lat: our closing
            // exchange met its fourth, and "done" met its closing one).
            s.sync(START_SYNC);
        }
        if (c.isServer() && verb.usesReadResources()) {
            s.closeExchange();
            out.println(Banner.RESULT_LINE);
            return List.of();
        }
        out.println(Banner.RESULT_LINE);
        out.println(c.byDuration() ? LatTable.durationHeader() : LatTable.header());
        out.flush();
        SendLatency sendLat = verb == Verb.SEND ? new SendLatency(s.res, c, s.peers[0], c.rxDepth(), tally) : null;
        WriteLatency writeLat = verb == Verb.WRITE ? new WriteLatency(s.res, c, s.peers[0], tally) : null;
        ReadAtomicLatency readLat = verb.usesReadResources() ? new ReadAtomicLatency(s.res, c, s.peers[0], tally) : null;
        LatencyLoop loop = sendLat != null ? sendLat : writeLat != null ? writeLat : readLat;
        if (meter.supported()) {
            loop.measureAllocationWith(new SteadyAllocation(meter));
        }
        loop.watchPeer(new PeerWatch(s.exchange::peerClosed, c.cmExchange(), System.nanoTime()));
        long duration = s.durationNanos();
        List<ResultRow> rows = new ArrayList<>();
        int[] current = {s.sizes[0]};
        // a long run (-D, -a) shows one line in place on a terminal, nothing when piped
        Progress progress = c.byDuration() || c.all() ? Progress.start(out, clock ->
                new ProgressLine(clock, () -> current[0], () -> loop.doneSoFar, false, false)) : Progress.OFF;
        try {
            for (int size : s.sizes) {
                current[0] = size;
                if (c.warmup() > 0) { // --warmup: the same ping-pong, unreported (both sides run it)
                    if (sendLat != null) {
                        sendLat.postReceives(size, c.warmup(), false);
                        s.sync("before the warm-up");
                        sendLat.run(c.warmup(), 0);
                    } else if (writeLat != null) {
                        writeLat.run(size, c.warmup(), 0);
                    } else {
                        readLat.run(size, c.warmup(), 0);
                    }
                }
                if (sendLat != null) {
                    sendLat.postReceives(size, c.iters(), duration > 0);
                    s.sync("before the test");
                }
                LatencyStats stats;
                if (sendLat != null) {
                    stats = sendLat.run(c.iters(), duration);
                } else if (writeLat != null) {
                    stats = writeLat.run(size, c.iters(), duration);
                } else {
                    stats = readLat.run(size, c.iters(), duration);
                }
                double alloc = loop.allocationPerOp();
                LatencyStats row = stats;
                progress.print(() -> {
                    if (loop.histogramUsec != null) {
                        // print_report_lat with -H: "#, usec", each sorted sample, then the header again
                        out.println("#, usec");
                        for (int i = 0; i < loop.histogramUsec.length; i++) {
                            out.println((i + 1) + ", " + CFormat.g(loop.histogramUsec[i]));
                        }
                        out.println(Banner.RESULT_LINE);
                        out.println(LatTable.header());
                    }
                    out.println(c.byDuration() ? LatTable.durationRow(row) : LatTable.row(row));
                });
                rows.add(ResultRow.lat(stats, alloc));
            }
        } finally {
            progress.close();
        }
        if (readLat != null) {
            s.closeExchange();
            out.println(Banner.RESULT_LINE);
        } else {
            out.println(Banner.RESULT_LINE);
            if (writeLat == null) {
                s.closeExchange();
            }
            // write_lat: perftest's main returns after the report, with no closing exchange;
            // the socket is closed with the session (a "done" we waited for would never come).
        }
        return rows;
    }
}
