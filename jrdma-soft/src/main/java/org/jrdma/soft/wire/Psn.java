package org.jrdma.soft.wire;

/**
 * 24-bit packet sequence number arithmetic (ROCEV2-FACTS §2.6). PSNs wrap at 2^24, so "before"
 * and "after" only make sense within half the space: like rxe's {@code psn_compare} and
 * rdmavt's {@code rvt_cmp_msn}, {@code a} is after {@code b} when {@code (a - b) << 8} is a
 * positive 32-bit int, which puts the wrap point 2^23 away from {@code b}. The IBA's valid and
 * invalid PSN regions are those two halves.
 */
public final class Psn {
    public static final int MASK = 0xFFFFFF;
    public static final int MAX = MASK;
    /** Size of the valid (and of the invalid) PSN region: the most PSNs a send queue may have outstanding. */
    public static final int HALF_SPACE = 1 << 23;

    private Psn() {
    }

    public static boolean isValid(int psn) {
        return (psn & ~MASK) == 0;
    }

    public static int next(int psn) {
        return (psn + 1) & MASK;
    }

    /** {@code psn + n} modulo 2^24; {@code n} may be negative. */
    public static int add(int psn, int n) {
        return (psn + n) & MASK;
    }

    /**
     * Negative if {@code a} is before {@code b}, 0 if equal, positive if after (rxe
     * {@code psn_compare}). Only the sign is meaningful.
     */
    public static int compare(int a, int b) {
        return (a - b) << 8;
    }

    /** Signed distance {@code a - b} in [-2^23, 2^23): how far {@code a} is after {@code b}. */
    public static int diff(int a, int b) {
        return ((a - b) << 8) >> 8;
    }

    /** Forward distance from {@code from} to {@code to}, in [0, 2^24). */
    public static int distance(int from, int to) {
        return (to - from) & MASK;
    }

    public static boolean isBefore(int a, int b) {
        return compare(a, b) < 0;
    }

    public static boolean isAfter(int a, int b) {
        return compare(a, b) > 0;
    }
}
