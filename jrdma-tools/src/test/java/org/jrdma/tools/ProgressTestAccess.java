package org.jrdma.tools;

/** {@link ProgressTest#rendered} for the perf package's tests. */
public final class ProgressTestAccess {
    private ProgressTestAccess() {
    }

    public static String rendered(String s) {
        return ProgressTest.rendered(s);
    }
}
