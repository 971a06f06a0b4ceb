package org.jrdma.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The run as Markdown: a header that says how to read it (machine, load, what each figure is,
 * the ratio's formula), the table (shape | jrdma | alloc | baseline | ratio | target | met?),
 * and the targets with their verdicts.
 */
public final class Report {
    private Report() {
    }

    /** What the run was, for the header. */
    public record Context(MachineInfo start, MachineInfo end, int reps, Budget budget, String rdma, String baselines) {
    }

    public static String markdown(Context c, List<Row> rows) {
        StringBuilder sb = new StringBuilder();
        sb.append("### jrdma against Java NIO, two processes on loopback\n\n");
        sb.append(String.format(Locale.ROOT, "%s · %d cores (%s) · %s · JDK %s · load average %s at start, %s at end%n%n",
                c.start().time(), c.start().cores(), c.start().cpu(), c.start().os(), c.start().jdk(),
                c.start().loadAverage(), c.end().loadAverage()));
        sb.append("- jrdma: ").append(c.rdma() == null ? "not run (baselines only)" : c.rdma()).append('\n');
        sb.append("- baselines: ").append(c.baselines()).append('\n');
        sb.append(String.format(Locale.ROOT, "- %d rep%s; in each, a shape's baseline and jrdma runs go back to back, in alternating order; %s%n",
                c.reps(), c.reps() == 1 ? "" : "s", runLength(c.budget())));
        sb.append("- figures: median [min–max] over the reps. Bandwidth in MiB/s (2^20 B/s; jrdma: perftest's BW average; TCP: bytes "
                + "counted at the receiver after a warm-up), higher is better. Latency in µs one-way (half the round trip), the median "
                + "(jrdma: perftest's t_typical; ping-pongs: p50 after a warm-up), lower is better\n");
        sb.append("- **ratio = jrdma ÷ baseline**, taken per rep (the two ran back to back), median [min–max] over the reps: "
                + "for bandwidth > 1 means jrdma is faster, for latency < 1 means jrdma is faster\n");
        sb.append(String.format(Locale.ROOT, "- alloc: heap bytes jrdma allocated per operation (--report-alloc; the larger side, the "
                + "largest rep); counted as zero below %.0f B/op%n%n", Plan.ZERO_ALLOC_BELOW_BYTES));

        sb.append("| shape | jrdma | alloc B/op | baseline | ratio | target | met? |\n");
        sb.append("|---|---|---|---|---|---|---|\n");
        for (Row r : rows) {
            sb.append("| ").append(r.shape().label())
                    .append(" | ").append(cell(r.rdma(), r.rdmaSummary(), r.shape().kind(), c.rdma() == null))
                    .append(" | ").append(allocCell(r, c.rdma() == null))
                    .append(" | ").append(r.baseline().label()).append(": ").append(cell(r.base(), r.baseSummary(), r.shape().kind(), false))
                    .append(" | ").append(ratioCell(r.ratio()))
                    .append(" | ").append(r.target() == null ? "0 B/op" : r.target().text() + ", 0 B/op")
                    .append(" | ").append(verdictText(r.verdict()))
                    .append(" |\n");
        }
        sb.append('\n').append(targets(rows));
        return sb.toString();
    }

    private static String runLength(Budget b) {
        String bw = b.bwTimed() ? b.bwSeconds() + " s per bandwidth run (-D)"
                : String.format(Locale.ROOT, "bandwidth runs move ≈ %s (-n: %d–%d messages)", Shape.sizeLabel(b.bwBytes()), b.bwMinIters(), b.bwMaxIters());
        return bw + String.format(Locale.ROOT, ", latency runs make %d round trips (-n)", b.latIters());
    }

    /** The three targets, each with its figure and verdict. */
    static String targets(List<Row> rows) {
        StringBuilder sb = new StringBuilder("Targets (issue 4):\n\n");
        for (Row r : rows) {
            if (r.target() != null) {
                Summary ratio = r.ratio();
                sb.append(String.format(Locale.ROOT, "- %s %s %s: %s — %s%n", r.shape().label(), r.target().text(), r.baseline().label(),
                        ratio == null ? "no ratio" : String.format(Locale.ROOT, "%.2f×", ratio.median()),
                        verdictText(r.targetVerdict())));
            }
        }
        List<Row> withRdma = rows.stream().filter(r -> r.rdmaSummary() != null).toList(); // rows where jrdma ran
        double max = Double.NaN;
        int unreported = 0;
        List<String> over = new ArrayList<>();
        for (Row r : withRdma) {
            double a = r.maxAllocBytesPerOp();
            if (Double.isNaN(a)) {
                unreported++;
            } else {
                max = Double.isNaN(max) ? a : Math.max(max, a);
                if (a >= Plan.ZERO_ALLOC_BELOW_BYTES && !over.contains(r.shape().label())) {
                    over.add(r.shape().label());
                }
            }
        }
        Row.Verdict alloc = withRdma.isEmpty() || unreported > 0 && over.isEmpty() ? Row.Verdict.UNKNOWN
                : over.isEmpty() ? Row.Verdict.MET : Row.Verdict.NOT_MET;
        sb.append(String.format(Locale.ROOT, "- zero bytes allocated per operation: %s — %s%n",
                Double.isNaN(max) ? "not reported" : String.format(Locale.ROOT, "at most %s B/op%s%s", num(max),
                        over.isEmpty() ? "" : " (" + String.join(", ", over) + ")",
                        unreported == 0 ? "" : ", " + unreported + " rows without a figure"),
                verdictText(alloc)));
        return sb.toString();
    }

    static String cell(List<Outcome> outcomes, Summary s, Kind kind, boolean notRun) {
        if (notRun) {
            return "–";
        }
        List<String> failures = outcomes.stream().filter(o -> o instanceof Outcome.Failed)
                .map(o -> ((Outcome.Failed) o).reason()).distinct().toList();
        if (s == null) {
            return failures.isEmpty() ? "–" : escape(String.join("; ", failures));
        }
        String text = value(s.median(), kind) + (s.n() > 1 ? " [" + value(s.min(), kind) + "–" + value(s.max(), kind) + "]" : "") + " " + kind.unit();
        if (!failures.isEmpty()) {
            text += " (" + (outcomes.size() - s.n()) + " of " + outcomes.size() + " failed: " + escape(String.join("; ", failures)) + ")";
        }
        return text;
    }

    static String ratioCell(Summary r) {
        if (r == null) {
            return "–";
        }
        String text = String.format(Locale.ROOT, "%.2f×", r.median());
        return r.n() > 1 ? text + String.format(Locale.ROOT, " [%.2f–%.2f]", r.min(), r.max()) : text;
    }

    private static String allocCell(Row r, boolean notRun) {
        if (notRun || r.rdmaSummary() == null) {
            return "–";
        }
        double a = r.maxAllocBytesPerOp();
        return Double.isNaN(a) ? "not reported" : num(a);
    }

    static String value(double v, Kind kind) {
        if (kind == Kind.LATENCY) {
            return String.format(Locale.ROOT, v < 100 ? "%.2f" : "%.1f", v);
        }
        return String.format(Locale.ROOT, v < 100 ? "%.1f" : "%.0f", v);
    }

    private static String num(double v) {
        return String.format(Locale.ROOT, v < 10 ? "%.2f" : "%.0f", v);
    }

    private static String verdictText(Row.Verdict v) {
        return switch (v) {
            case MET -> "yes";
            case NOT_MET -> "**no**";
            case UNKNOWN -> "?";
        };
    }

    private static String escape(String s) {
        return s.replace("|", "\\|").replace("\n", " ");
    }
}
