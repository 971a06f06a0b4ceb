package org.jrdma.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/** Deterministic sides for the runner's tests, which log the order of their calls. */
final class FakeSides {
    final List<String> calls = new ArrayList<>();
    private final Map<String, Integer> counts = new java.util.HashMap<>();

    /**
     * The outcome of the n-th call (from 0) for a key like "jrdma write_bw 65536", "jrdma write_bw 65536 q16"
     * (a variant's name last) or "TCP streaming 65536".
     */
    private final BiFunction<String, Integer, Outcome> outcomes;

    FakeSides(BiFunction<String, Integer, Outcome> outcomes) {
        this.outcomes = outcomes;
    }

    private Outcome next(String key) {
        calls.add(key);
        int n = counts.merge(key, 1, Integer::sum) - 1;
        return outcomes.apply(key, n);
    }

    RdmaSide rdma() {
        return new RdmaSide() {
            @Override
            public Outcome run(Shape shape, Budget budget) {
                return next("jrdma " + shape.test() + " " + shape.sizeBytes()
                        + (shape.variant().name().isEmpty() ? "" : " " + shape.variant().name()));
            }

            @Override
            public String description() {
                return "fake jrdma";
            }
        };
    }

    BaselineSide baselines() {
        return new BaselineSide() {
            @Override
            public Outcome run(Baseline baseline, int sizeBytes, Budget budget) {
                return next(baseline.label() + " " + sizeBytes);
            }

            @Override
            public String description() {
                return "fake baselines";
            }
        };
    }
}
