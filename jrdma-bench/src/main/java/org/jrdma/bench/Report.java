package org.jrdma.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The run as Markdown: a header that says how to read it (machine, load, what each figure is,
 * the ratio's formula), the table (shape | jrdma | alloc | baseline | ratio | target | met?),
 * and the issue's targets with their verdicts.
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
        sb.append("- variants: -q 16 is 16 QPs round robin, the aggregate, the same bytes as -q 1; \"beside 1000 idle QPs\" is one "
                + "busy QP while each side holds 1000 more connected ones that carry nothing (jrdma perf --idle-qps); both are "
                + "compared with jrdma's plain run of the same test and size, run back to back. -l 16 posts 16 WRs per call as one "
                + "chained list (perftest's --post_list), against TCP streaming as the plain run. -e sleeps on CQ events, against a "
                + "UDP ping-pong on blocking channels. --provider shm runs both perf processes on the shared-memory provider (device "
                + "shm0: a WRITE is one copy, by the requester, into memory the peer maps), against same-host Java: "
                + "MemorySegment.copy of the size between two page-aligned off-heap segments of perf's region size in one process, "
                + "cycling through slots as perf does (bandwidth), and two processes ping-ponging through a shared memory-mapped "
                + "file, busy polling (latency)\n");
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
                    .append(" | ").append(r.baselineLabel()).append(": ").append(cell(r.base(), r.baseSummary(), r.shape().kind(), false))
                    .append(" | ").append(ratioCell(r.ratio()))
                    .append(" | ").append(targetCell(r))
                    .append(" | ").append(verdictText(r.verdict()))
                    .append(" |\n");
        }
        sb.append('\n').append(tails(rows)).append(cpu(rows)).append(targets(rows));
        return sb.toString();
    }

    private static String targetCell(Row r) {
        List<String> t = new ArrayList<>(r.targets().stream().map(Target::text).toList());
        t.add("0 B/op");
        return String.join(", ", t);
    }

    /** The latency rows' p50, p99 and p99.9, each side and each ratio; empty without latency rows. */
    static String tails(List<Row> rows) {
        List<Row> lat = rows.stream().filter(r -> r.shape().kind() == Kind.LATENCY).toList();
        if (lat.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("Latency tails, µs one-way, p50 / p99 / p99.9 (jrdma: perftest's t_typical and its "
                + "99% and 99.9% percentile columns; ping-pongs: nearest rank of half the round trips); ratio = jrdma ÷ baseline per rep, "
                + "the median over the reps:\n\n");
        sb.append("| shape | baseline | jrdma | baseline | ratio |\n|---|---|---|---|---|\n");
        for (Row r : lat) {
            sb.append("| ").append(r.shape().label()).append(" | ").append(r.baselineLabel())
                    .append(" | ").append(triple(r.rdmaSummary(), r.rdmaP99(), r.rdmaP999(), Report::latency))
                    .append(" | ").append(triple(r.baseSummary(), r.baseP99(), r.baseP999(), Report::latency))
                    .append(" | ").append(triple(r.ratio(), r.measured(Target.Measure.P99_RATIO), r.measured(Target.Measure.P999_RATIO),
                            v -> String.format(Locale.ROOT, "%.2f×", v)))
                    .append(" |\n");
        }
        return sb.append('\n').toString();
    }

    /** The bandwidth rows' message rate and CPU seconds per GiB, each side and the ratio; empty without them. */
    static String cpu(List<Row> rows) {
        List<Row> bw = rows.stream().filter(r -> r.shape().kind() == Kind.BANDWIDTH).toList();
        if (bw.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("Bandwidth rows: jrdma's message rate (MiB/s × 2^20 ÷ size), and CPU seconds per GiB "
                + "moved: user + system time of the run's two processes together, from the end of their set-up (perf: the "
                + "setupCpuSeconds of its JSON, the session up; TCP: the server bound, the client connected) to their exit, so the "
                + "warm-up and the teardown are in it and JVM start-up and connection set-up are not, ÷ the GiB they moved, "
                + "warm-up included; "
                + "ratio = jrdma ÷ baseline per rep, the median over the reps:\n\n");
        sb.append("| shape | jrdma msg/s | jrdma CPU s/GiB | baseline | baseline CPU s/GiB | CPU ratio |\n|---|---|---|---|---|---|\n");
        for (Row r : bw) {
            sb.append("| ").append(r.shape().label())
                    .append(" | ").append(single(r.rdmaMsgRate(), Report::rate))
                    .append(" | ").append(single(r.rdmaCpuPerGiB(), Report::cpuValue))
                    .append(" | ").append(r.baselineLabel())
                    .append(" | ").append(single(r.baseCpuPerGiB(), Report::cpuValue))
                    .append(" | ").append(ratioCell(r.measured(Target.Measure.CPU_RATIO)))
                    .append(" |\n");
        }
        return sb.append('\n').toString();
    }

    private static String triple(Summary a, Summary b, Summary c, java.util.function.DoubleFunction<String> f) {
        return single(a, f) + " / " + single(b, f) + " / " + single(c, f);
    }

    private static String single(Summary s, java.util.function.DoubleFunction<String> f) {
        return s == null ? "–" : f.apply(s.median());
    }

    private static String latency(double v) {
        return value(v, Kind.LATENCY);
    }

    /** Millions of messages per second as "1.23 M", "491 k", "480". */
    static String rate(double millions) {
        double v = millions * 1e6;
        if (v >= 1e6) {
            return String.format(Locale.ROOT, "%.2f M", millions);
        }
        return v >= 1e3 ? String.format(Locale.ROOT, "%.0f k", v / 1e3) : String.format(Locale.ROOT, "%.0f", v);
    }

    private static String cpuValue(double v) {
        return String.format(Locale.ROOT, v < 10 ? "%.3f" : "%.1f", v);
    }

    private static String runLength(Budget b) {
        String bw = b.bwTimed() ? b.bwSeconds() + " s per bandwidth run (-D)"
                : String.format(Locale.ROOT, "bandwidth runs move ≈ %s (-n: %d–%d messages)", Shape.sizeLabel(b.bwBytes()), b.bwMinIters(), b.bwMaxIters());
        return bw + String.format(Locale.ROOT, ", latency runs make %d round trips (-n)", b.latIters());
    }

    /**
     * The issues' targets, each with its figure and verdict, and zero allocation: one list per
     * issue (15, and 18 for the shared-memory provider's rows), in the order the rows have them.
     */
    static String targets(List<Row> rows) {
        StringBuilder sb = new StringBuilder();
        List<Integer> issues = rows.stream().map(r -> Plan.issueOf(r.shape())).distinct().toList();
        for (int issue : issues) {
            if (!sb.isEmpty()) {
                sb.append('\n');
            }
            sb.append(targets(issue, rows.stream().filter(r -> Plan.issueOf(r.shape()) == issue).toList()));
        }
        return sb.toString();
    }

    /** One issue's targets: figures rounded against their bound (see {@link Target#format}). */
    private static String targets(int issue, List<Row> rows) {
        StringBuilder sb = new StringBuilder("Targets (issue " + issue + "):\n\n");
        for (Row r : rows) {
            for (Target t : r.targets()) {
                Summary m = r.measured(t.measure());
                String against = t.measure().isRatio() ? " " + r.baselineLabel() : "";
                sb.append(String.format(Locale.ROOT, "- %s %s%s: %s — %s%n", r.shape().label(), t.text(), against,
                        m == null ? "no figure" : t.format(m.median()), verdictText(r.verdict(t))));
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
