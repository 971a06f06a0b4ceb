package org.jrdma.bench;

import java.util.Locale;

/** A bound on the ratio jrdma ÷ baseline that the issue sets for one row. */
public record Target(boolean atLeast, double bound) {
    public static Target atLeast(double bound) {
        return new Target(true, bound);
    }

    public static Target atMost(double bound) {
        return new Target(false, bound);
    }

    public boolean isMet(double ratio) {
        return atLeast ? ratio >= bound : ratio <= bound;
    }

    public String text() {
        return String.format(Locale.ROOT, "%s %.2f×", atLeast ? "≥" : "≤", bound);
    }
}
