package org.jrdma.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * One line of the table: a shape against one baseline, with each side's outcome per rep
 * (index i of both lists is rep i, run back to back).
 *
 * @param targets the bounds for this row (maybe none)
 * @param rdma    jrdma's outcomes; empty when the run had no jrdma side
 */
public record Row(Shape shape, Baseline baseline, List<Target> targets, List<Outcome> rdma, List<Outcome> base) {
    public Row {
        targets = List.copyOf(targets);
        rdma = List.copyOf(rdma);
        base = List.copyOf(base);
    }

    public enum Verdict { MET, NOT_MET, UNKNOWN }

    /** What the baseline column calls this row's baseline: "TCP streaming", "jrdma write_bw 64 KiB". */
    public String baselineLabel() {
        return baseline == Baseline.JRDMA ? "jrdma " + shape.reference().label() : baseline.label();
    }

    public Summary rdmaSummary() {
        return summary(rdma, Outcome.Ok::value);
    }

    public Summary baseSummary() {
        return summary(base, Outcome.Ok::value);
    }

    /** jrdma's p99 latency over the reps (µs), null when none was reported. */
    public Summary rdmaP99() {
        return summary(rdma, Outcome.Ok::p99Us);
    }

    public Summary rdmaP999() {
        return summary(rdma, Outcome.Ok::p999Us);
    }

    public Summary baseP99() {
        return summary(base, Outcome.Ok::p99Us);
    }

    public Summary baseP999() {
        return summary(base, Outcome.Ok::p999Us);
    }

    public Summary rdmaCpuPerGiB() {
        return summary(rdma, Outcome.Ok::cpuSecondsPerGiB);
    }

    public Summary baseCpuPerGiB() {
        return summary(base, Outcome.Ok::cpuSecondsPerGiB);
    }

    /** jrdma ÷ baseline for each rep where both sides have a figure, summarized. */
    public Summary ratio() {
        return ratio(Outcome.Ok::value);
    }

    /** jrdma's messages per second, in millions, over the reps (bandwidth: MiB/s × 2^20 ÷ message size). */
    public Summary rdmaMsgRate() {
        int size = shape.sizeBytes();
        return shape.kind() == Kind.BANDWIDTH ? summary(rdma, ok -> ok.value() * (1 << 20) / size / 1e6) : null;
    }

    /** What a target measures, summarized over the reps: a per-rep ratio, or jrdma's message rate or latency. */
    public Summary measured(Target.Measure m) {
        return switch (m) {
            case RATIO -> ratio();
            case P99_RATIO -> ratio(Outcome.Ok::p99Us);
            case P999_RATIO -> ratio(Outcome.Ok::p999Us);
            case CPU_RATIO -> ratio(Outcome.Ok::cpuSecondsPerGiB);
            case MSG_RATE -> rdmaMsgRate();
            case LATENCY_US -> shape.kind() == Kind.LATENCY ? rdmaSummary() : null;
        };
    }

    /** jrdma ÷ baseline of one figure, per rep where both sides have it, summarized. */
    public Summary ratio(ToDoubleFunction<Outcome.Ok> figure) {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < Math.min(rdma.size(), base.size()); i++) {
            if (rdma.get(i) instanceof Outcome.Ok r && base.get(i) instanceof Outcome.Ok b) {
                double x = figure.applyAsDouble(r);
                double y = figure.applyAsDouble(b);
                if (!Double.isNaN(x) && !Double.isNaN(y) && y > 0) {
                    ratios.add(x / y);
                }
            }
        }
        return Summary.of(ratios);
    }

    /** The largest allocation per operation jrdma reported over the reps; NaN when none did. */
    public double maxAllocBytesPerOp() {
        double max = Double.NaN;
        for (Outcome o : rdma) {
            if (o instanceof Outcome.Ok ok && !Double.isNaN(ok.allocBytesPerOp())) {
                max = Double.isNaN(max) ? ok.allocBytesPerOp() : Math.max(max, ok.allocBytesPerOp());
            }
        }
        return max;
    }

    /** Allocation is met when reported and below {@link Plan#ZERO_ALLOC_BELOW_BYTES}. */
    public Verdict allocVerdict() {
        double a = maxAllocBytesPerOp();
        return Double.isNaN(a) ? Verdict.UNKNOWN : a < Plan.ZERO_ALLOC_BELOW_BYTES ? Verdict.MET : Verdict.NOT_MET;
    }

    /** One target, on the median of what it measures; UNKNOWN without a figure. */
    public Verdict verdict(Target t) {
        Summary m = measured(t.measure());
        if (m == null) {
            return Verdict.UNKNOWN;
        }
        return t.isMet(m.median()) ? Verdict.MET : Verdict.NOT_MET;
    }

    /** Every target of the row: NOT_MET if one is not, MET if all are (or there is none), else UNKNOWN. */
    public Verdict targetVerdict() {
        return combine(targets.stream().map(this::verdict).toList());
    }

    /** Both: the row's targets, and zero allocation. */
    public Verdict verdict() {
        return combine(List.of(allocVerdict(), targetVerdict()));
    }

    private static Verdict combine(List<Verdict> vs) {
        if (vs.contains(Verdict.NOT_MET)) {
            return Verdict.NOT_MET;
        }
        return vs.contains(Verdict.UNKNOWN) ? Verdict.UNKNOWN : Verdict.MET;
    }

    private static Summary summary(List<Outcome> outcomes, ToDoubleFunction<Outcome.Ok> figure) {
        List<Double> v = new ArrayList<>();
        for (Outcome o : outcomes) {
            if (o instanceof Outcome.Ok ok) {
                double x = figure.applyAsDouble(ok);
                if (!Double.isNaN(x)) {
                    v.add(x);
                }
            }
        }
        return Summary.of(v);
    }
}
