package org.jrdma.soft.wire;

/**
 * 24-bit message sequence number arithmetic (ROCEV2-FACTS §2.7). The responder's MSN travels in
 * every AETH and wraps like a PSN, so it is compared the same way (rdmavt {@code rvt_cmp_msn}).
 */
public final class Msn {
    public static final int MASK = Psn.MASK;

    private Msn() {
    }

    public static boolean isValid(int msn) {
        return Psn.isValid(msn);
    }

    public static int next(int msn) {
        return Psn.next(msn);
    }

    public static int add(int msn, int n) {
        return Psn.add(msn, n);
    }

    /** Negative, zero or positive as {@code a} is before, equal to or after {@code b}. */
    public static int compare(int a, int b) {
        return Psn.compare(a, b);
    }

    public static int diff(int a, int b) {
        return Psn.diff(a, b);
    }
}
