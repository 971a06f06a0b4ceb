package org.jrdma.tools.perf;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * One side of one run: the session, the test, then what comes after the table —
 * {@code --report-alloc} lines, the {@code --check} summary, the JSON file — and the verdict.
 */
final class PerfRunner {
    private PerfRunner() {
    }

    /**
     * Runs the test; throws when it fails (a {@code --check} mismatch included). {@code notices}
     * takes the lines said on the way, on stderr (a client retrying until its server listens).
     */
    static void run(PerfConfig config, PrintWriter out, Consumer<String> notices) {
        CheckTally tally = new CheckTally();
        List<ResultRow> rows;
        PerfConfig c;
        PerfJson.Setup setup;
        try (PerfSession s = PerfSession.open(config, out, notices)) {
            c = s.c;
            rows = c.test().isBandwidth() ? new BwRun(s, tally).run() : new LatRun(s, tally).run();
            setup = new PerfJson.Setup(s.deviceName, s.mtu.bytes(), s.cqMod, s.exchange.peerVersion().text(), s.setupCpuSeconds);
        }
        if (c.reportAlloc()) {
            for (ResultRow r : rows) {
                String value = Double.isNaN(r.allocBytesPerOp()) ? "n/a" : String.format(Locale.ROOT, "%.2f", r.allocBytesPerOp());
                out.println("bytes allocated per operation: " + value + (rows.size() > 1 ? " (#bytes " + r.size() + ")" : ""));
            }
        }
        if (c.check()) {
            out.println(tally.summary());
            for (String note : tally.notes()) {
                out.println("   (" + note + ")");
            }
        }
        out.flush();
        if (c.jsonFile() != null) {
            PerfJson.write(c.jsonFile(), PerfJson.of(c, setup, rows, tally));
        }
        if (!tally.passed()) {
            throw new IllegalStateException("--check failed: " + tally.failed() + " mismatch"
                    + (tally.failed() == 1 ? "" : "es") + "; the first: " + tally.firstFailure()
                    + (tally.failed() >= tally.verified() ? " (so many: does the peer run the same test with --check?)" : ""));
        }
    }
}
