package org.jrdma.bench;

import java.util.Locale;

/**
 * A bound the issue sets for one row: on a ratio jrdma ÷ baseline (of the medians, of p99, of
 * p99.9, of CPU seconds per GiB), or on jrdma's own message rate.
 */
public record Target(Measure measure, boolean atLeast, double bound) {
    /** What a target bounds. */
    public enum Measure {
        /** The row's figure (bandwidth, or the median latency), jrdma ÷ baseline. */
        RATIO("", "×"),
        /** The 99th percentile latency, jrdma ÷ baseline. */
        P99_RATIO("p99 ", "×"),
        /** The 99.9th percentile latency, jrdma ÷ baseline. */
        P999_RATIO("p99.9 ", "×"),
        /** CPU seconds per GiB moved (both processes), jrdma ÷ baseline. */
        CPU_RATIO("CPU/GiB ", "×"),
        /** jrdma's own messages per second, in millions (not a ratio). */
        MSG_RATE("", " M msg/s"),
        /** jrdma's own median one-way latency (half the round trip), in µs (not a ratio). */
        LATENCY_US("", " µs");

        private final String prefix;
        private final String unit;

        Measure(String prefix, String unit) {
            this.prefix = prefix;
            this.unit = unit;
        }

        public boolean isRatio() {
            return this != MSG_RATE && this != LATENCY_US;
        }
    }

    public static Target atLeast(double bound) {
        return new Target(Measure.RATIO, true, bound);
    }

    public static Target atMost(double bound) {
        return new Target(Measure.RATIO, false, bound);
    }

    public static Target atLeast(Measure m, double bound) {
        return new Target(m, true, bound);
    }

    public static Target atMost(Measure m, double bound) {
        return new Target(m, false, bound);
    }

    public boolean isMet(double measured) {
        return atLeast ? measured >= bound : measured <= bound;
    }

    /** "≥ 1.00×", "p99 ≤ 2.00×", "CPU/GiB ≤ 1.50×", "≥ 1.00 M msg/s", "≤ 0.50 µs". */
    public String text() {
        return String.format(Locale.ROOT, "%s%s %.2f%s", measure.prefix, atLeast ? "≥" : "≤", bound, measure.unit);
    }

    /**
     * A measured value as this target's unit shows it: "0.93×", "1.21 M msg/s", "0.53 µs" —
     * rounded to two decimals against the target (down for a lower bound, up for an upper bound),
     * so that a figure that misses its bound never shows as the bound: 0.697 of ≥ 0.70× is 0.69×,
     * 0.503 of ≤ 0.50 µs is 0.51 µs.
     */
    public String format(double measured) {
        double hundredths = measured * 100;
        // a figure that is two decimals already stays itself (0.7 * 100 is 70.00000000000001)
        double nearest = Math.rint(hundredths);
        double rounded = Math.abs(hundredths - nearest) < 1e-9 ? nearest : atLeast ? Math.floor(hundredths) : Math.ceil(hundredths);
        return String.format(Locale.ROOT, "%.2f%s", rounded / 100, measure.unit);
    }
}
