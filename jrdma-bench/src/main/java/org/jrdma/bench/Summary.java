package org.jrdma.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/** Median, min and max of repeated measurements. */
public record Summary(int n, double median, double min, double max) {
    /** The summary of the values, or null when there are none. */
    public static Summary of(Collection<Double> values) {
        if (values.isEmpty()) {
            return null;
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        return new Summary(n, median, sorted.getFirst(), sorted.getLast());
    }
}
