package org.jrdma.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * One line of the table: a shape against one baseline, with each side's outcome per rep
 * (index i of both lists is rep i, run back to back).
 *
 * @param target the bound on the ratio for this row, or null
 * @param rdma   jrdma's outcomes; empty when the run had no jrdma side
 */
public record Row(Shape shape, Baseline baseline, Target target, List<Outcome> rdma, List<Outcome> base) {
    public Row {
        rdma = List.copyOf(rdma);
        base = List.copyOf(base);
    }

    public enum Verdict { MET, NOT_MET, UNKNOWN }

    public Summary rdmaSummary() {
        return Summary.of(values(rdma));
    }

    public Summary baseSummary() {
        return Summary.of(values(base));
    }

    /** jrdma ÷ baseline for each rep where both sides have a figure, summarized. */
    public Summary ratio() {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < Math.min(rdma.size(), base.size()); i++) {
            if (rdma.get(i) instanceof Outcome.Ok r && base.get(i) instanceof Outcome.Ok b) {
                ratios.add(r.value() / b.value());
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

    /** The ratio target (median ratio), or UNKNOWN without a target or a ratio. */
    public Verdict targetVerdict() {
        Summary r = ratio();
        if (target == null || r == null) {
            return Verdict.UNKNOWN;
        }
        return target.isMet(r.median()) ? Verdict.MET : Verdict.NOT_MET;
    }

    /** Both: the row's target where it has one, and zero allocation. */
    public Verdict verdict() {
        Verdict a = allocVerdict();
        Verdict t = target == null ? Verdict.MET : targetVerdict();
        if (a == Verdict.NOT_MET || t == Verdict.NOT_MET) {
            return Verdict.NOT_MET;
        }
        return a == Verdict.MET && t == Verdict.MET ? Verdict.MET : Verdict.UNKNOWN;
    }

    private static List<Double> values(List<Outcome> outcomes) {
        List<Double> v = new ArrayList<>();
        for (Outcome o : outcomes) {
            if (o instanceof Outcome.Ok ok) {
                v.add(ok.value());
            }
        }
        return v;
    }
}
