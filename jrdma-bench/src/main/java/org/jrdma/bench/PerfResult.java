package org.jrdma.bench;

import java.util.Map;
import java.util.Set;

/**
 * The figures of one {@code jrdma perf} run, by canonical name (bwAvgMiBs, tTypicalUs,
 * allocBytesPerOp, … see {@link PerfJson}); absent figures are simply not there.
 *
 * @param test    the test it names, when it does
 * @param keysSeen every (normalized) key of the JSON, for error messages
 */
public record PerfResult(String test, Map<String, Double> figures, Set<String> keysSeen) {
    public PerfResult {
        figures = Map.copyOf(figures);
        keysSeen = Set.copyOf(keysSeen);
    }

    public double get(String name) {
        Double v = figures.get(name);
        return v == null ? Double.NaN : v;
    }

    boolean hasFigure() {
        return figures.containsKey("bwAvgMiBs") || figures.containsKey("tTypicalUs");
    }

    /**
     * The figure a shape is compared on: perftest's BW average (MiB/s) for bandwidth, its
     * t_typical (the median one-way latency, µs) for latency. Checks that the run is the shape
     * asked for when the JSON says which.
     */
    public double figureFor(Shape shape) {
        if (test != null && test.matches("[a-z]+_(bw|lat)") && !test.equals(shape.test())) {
            throw new IllegalStateException("jrdma perf reported test " + test + ", expected " + shape.test());
        }
        double size = get("size");
        if (!Double.isNaN(size) && size != shape.sizeBytes()) {
            throw new IllegalStateException("jrdma perf reported size " + (long) size + ", expected " + shape.sizeBytes());
        }
        String name = shape.kind() == Kind.BANDWIDTH ? "bwAvgMiBs" : "tTypicalUs";
        double v = get(name);
        if (Double.isNaN(v)) {
            throw new IllegalStateException("jrdma perf JSON has no " + name + " (keys: " + String.join(", ", keysSeen) + ")");
        }
        return v;
    }
}
