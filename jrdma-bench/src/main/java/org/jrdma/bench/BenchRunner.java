package org.jrdma.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs every shape of the plan {@code reps} times. Within a rep, a shape's baselines and its
 * jrdma run go back to back, so the machine's noise of that moment hits both; the order
 * alternates from rep to rep (baselines first, then jrdma first) so neither side always runs
 * on a machine the other has just warmed or heated. A variant compared with jrdma's plain run
 * ({@link Baseline#JRDMA}: -q 16 against -q 1) has that run as its baseline, back to back in
 * the same way. Progress goes to {@code progress}.
 */
public final class BenchRunner {
    private final Plan plan;
    private final Budget budget;
    private final int reps;
    private final RdmaSide rdma;
    private final BaselineSide baselines;
    private final PrintStream progress;

    /** @param rdma null for a run of the baselines alone */
    public BenchRunner(Plan plan, Budget budget, int reps, RdmaSide rdma, BaselineSide baselines, PrintStream progress) {
        if (reps < 1) {
            throw new IllegalArgumentException("reps must be >= 1: " + reps);
        }
        this.plan = plan;
        this.budget = budget;
        this.reps = reps;
        this.rdma = rdma;
        this.baselines = baselines;
        this.progress = progress;
    }

    private record Key(Shape shape, Baseline baseline) {
    }

    public List<Row> run() {
        Map<Shape, List<Outcome>> rdmaOutcomes = new LinkedHashMap<>();
        Map<Key, List<Outcome>> baseOutcomes = new LinkedHashMap<>();
        for (int rep = 0; rep < reps; rep++) {
            for (Shape shape : plan.shapes()) {
                boolean rdmaFirst = rep % 2 == 1;
                if (rdmaFirst) {
                    runRdma(shape, rep, rdmaOutcomes);
                }
                for (Baseline b : Plan.baselinesFor(shape)) {
                    Outcome o = runBaseline(shape, b);
                    report(rep, shape.label() + " · " + (b == Baseline.JRDMA ? "jrdma " + shape.reference().label() : b.label()),
                            shape.kind(), o);
                    baseOutcomes.computeIfAbsent(new Key(shape, b), k -> new ArrayList<>()).add(o);
                }
                if (!rdmaFirst) {
                    runRdma(shape, rep, rdmaOutcomes);
                }
            }
        }
        List<Row> rows = new ArrayList<>();
        for (Shape shape : plan.shapes()) {
            for (Baseline b : Plan.baselinesFor(shape)) {
                rows.add(new Row(shape, b, Plan.targetsFor(shape, b), rdmaOutcomes.getOrDefault(shape, List.of()),
                        baseOutcomes.get(new Key(shape, b))));
            }
        }
        return rows;
    }

    /** A Java baseline by the baseline side; {@link Baseline#JRDMA}, the shape's plain run, by the jrdma side. */
    private Outcome runBaseline(Shape shape, Baseline b) {
        if (b != Baseline.JRDMA) {
            return baselines.run(b, shape.sizeBytes(), budget);
        }
        return rdma == null ? Outcome.failed("no jrdma side") : rdma.run(shape.reference(), budget);
    }

    private void runRdma(Shape shape, int rep, Map<Shape, List<Outcome>> into) {
        if (rdma == null) {
            return;
        }
        Outcome o = rdma.run(shape, budget);
        report(rep, shape.label() + " · jrdma", shape.kind(), o);
        into.computeIfAbsent(shape, k -> new ArrayList<>()).add(o);
    }

    private void report(int rep, String what, Kind kind, Outcome o) {
        String result = switch (o) {
            case Outcome.Ok ok -> String.format(Locale.ROOT, "%.2f %s", ok.value(), kind.unit());
            case Outcome.Failed f -> "FAILED: " + f.reason();
        };
        progress.printf(Locale.ROOT, "bench: rep %d/%d  %-36s %s%n", rep + 1, reps, what, result);
        progress.flush();
    }
}
