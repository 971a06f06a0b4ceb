package org.jrdma.soft;

import java.util.List;
import java.util.Locale;

/** Latency figures for the side-channel tests (SEC-50, SEC-51): percentiles and the two-sample KS distance. */
final class Distributions {
    private Distributions() {
    }

    static String summary(List<Long> nanos) {
        long[] s = sorted(nanos);
        return String.format(Locale.ROOT, "p10 %.1f µs, median %.1f µs, p90 %.1f µs", s[s.length / 10] / 1e3,
                s[s.length / 2] / 1e3, s[s.length * 9 / 10] / 1e3);
    }

    /** sup |F_a(x) − F_b(x)| over the pooled sample: 0 = same distribution, 1 = disjoint. */
    static double ks(List<Long> a, List<Long> b) {
        long[] x = sorted(a);
        long[] y = sorted(b);
        int i = 0;
        int j = 0;
        double d = 0;
        while (i < x.length && j < y.length) {
            long v = Math.min(x[i], y[j]);
            while (i < x.length && x[i] == v) {
                i++;
            }
            while (j < y.length && y[j] == v) {
                j++;
            }
            d = Math.max(d, Math.abs((double) i / x.length - (double) j / y.length));
        }
        return d;
    }

    /**
     * The AUC of the best threshold classifier telling {@code a} from {@code b} by latency, i.e.
     * P(a sample of a is slower than one of b), folded so that 0.5 = no better than chance.
     */
    static double auc(List<Long> a, List<Long> b) {
        long[] x = sorted(a);
        long[] y = sorted(b);
        double wins = 0;
        int j = 0;
        int k = 0;
        for (long v : x) {
            while (j < y.length && y[j] < v) {
                j++;
            }
            k = j;
            while (k < y.length && y[k] == v) {
                k++;
            }
            wins += j + 0.5 * (k - j);
        }
        double auc = wins / ((double) x.length * y.length);
        return Math.max(auc, 1 - auc);
    }

    private static long[] sorted(List<Long> v) {
        return v.stream().mapToLong(Long::longValue).sorted().toArray();
    }
}
