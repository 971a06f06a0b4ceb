package org.jrdma.tools.chaos;

import java.util.List;
import java.util.Locale;

/**
 * The matrix as a Markdown table: per cell, goodput and its ratio to the baseline cell (the
 * first), retransmitted packets, sequence NAKs, retransmit timeouts, and the outcome — with
 * the time to error where the retry budget ran out.
 */
public final class ChaosTable {
    private ChaosTable() {
    }

    public static String header() {
        return "| cell | impairment | goodput MiB/s | vs baseline | retransmitted | seq NAKs | timeouts | dropped by the network | outcome |\n"
                + "|---|---|---|---|---|---|---|---|---|";
    }

    public static String row(CellResult r, CellResult baseline) {
        double ratio = baseline == null || baseline.mibPerSecond() == 0 ? 0 : r.mibPerSecond() / baseline.mibPerSecond();
        String outcome;
        if (r.error() != null) {
            outcome = String.format(Locale.ROOT, "%s after %.0f ms%s", r.error(), r.errorNanos() / 1e6,
                    r.cell().expectsError() ? " (expected)" : "");
        } else {
            outcome = r.verified() ? "ok, byte-exact, atomics exact" : "DATA MISMATCH";
        }
        return String.format(Locale.ROOT, "| %s | %s | %.1f | %.2f | %d | %d | %d | %d | %s |", r.cell().id(), r.cell().name(),
                r.mibPerSecond(), ratio, r.counter("retransmitted_packets"), r.counter("seq_naks_sent"),
                r.counter("retry_timeouts"), r.counter("impair_dropped"), outcome);
    }

    public static String table(List<CellResult> results) {
        StringBuilder sb = new StringBuilder(header()).append('\n');
        CellResult baseline = results.isEmpty() ? null : results.getFirst();
        for (CellResult r : results) {
            sb.append(row(r, baseline)).append('\n');
        }
        return sb.toString();
    }
}
