package org.jrdma.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import org.jrdma.testkit.TokenEntropy;
import org.jrdma.testkit.TokenEntropy.Figures;
import org.junit.jupiter.api.Test;

/**
 * SEC-05 (RELIABILITY-SECURITY §6.1, ReDMArk V6): the initial PSN every RcConnector connection
 * advertises is uniform over 24 bits (from SecureRandom; perftest's lrand48 seeded with
 * pid × time is the anti-pattern) and unrelated to the connection's order or the time. The
 * figures are printed: MCV H∞ (whole value and per byte), per-bit bias, χ² of the top and the
 * bottom 12 bits over 4,096 bins, repeats against the birthday expectation (≈ n²/2^25), and the
 * correlation with order and with the clock. CI draws 100,000; the long run:
 * {@code ./mvnw -B -o -pl jrdma-bootstrap -am test -Dtest=InitialPsnEntropyTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Djrdma.entropy.samples=1000000}.
 */
class InitialPsnEntropyTest {
    private static final int SAMPLES = Integer.getInteger("jrdma.entropy.samples", 100_000);

    @Test
    void sec05InitialPsnsAreUniformOver24BitsAndUnrelatedToOrderOrTime() {
        int[] psns = new int[SAMPLES];
        long[] times = new long[SAMPLES];
        for (int i = 0; i < SAMPLES; i++) {
            times[i] = System.nanoTime();
            psns[i] = RcConnector.initialPsn();
            assertThat(psns[i] & ~0xFFFFFF).as("a 24-bit PSN").isZero();
        }
        Figures f = TokenEntropy.measure("SEC-05 initial PSN", psns, 24);
        Figures d = TokenEntropy.measure("SEC-05 initial PSN Δ", TokenEntropy.deltas(psns, 24), 24);
        double chiTop = TokenEntropy.chiSquare(psns, 24, 12);
        double chiLow = TokenEntropy.chiSquare(shiftLow(psns), 24, 12);
        double chiBound = TokenEntropy.chiSquareBound(4095);
        // Draws that hit an earlier value: n − N(1 − (1 − 1/N)^n) with N = 2^24 (≈ n²/2^25 for small n).
        double space = 1 << 24;
        double expectedRepeats = SAMPLES - space * (1 - Math.pow(1 - 1 / space, SAMPLES));
        double byOrder = correlation(psns, i -> i);
        double byTime = correlation(psns, i -> times[i]);
        System.out.println(f);
        System.out.println(d);
        System.out.printf("SEC-05 χ²(top 12 bits) %.1f, χ²(low 12 bits) %.1f, df 4095, bound %.1f;"
                        + " repeats %d (birthday expectation %.1f); correlation with order %.4f, with time %.4f%n",
                chiTop, chiLow, chiBound, f.repeats(), expectedRepeats, byOrder, byTime);

        assertThat(f.perByteMinEntropy()).as("H∞ summed over the 3 bytes").isGreaterThanOrEqualTo(SAMPLES >= 100_000 ? 22 : 20);
        assertThat(d.perByteMinEntropy()).as("H∞ of Δ summed over the 3 bytes").isGreaterThanOrEqualTo(20);
        assertThat(f.maxBitBias()).as("worst bit's bias").isLessThan(TokenEntropy.biasBound(SAMPLES));
        assertThat(chiTop).as("χ² of the top 12 bits").isLessThan(chiBound);
        assertThat(chiLow).as("χ² of the low 12 bits").isLessThan(chiBound);
        // Repeats follow the birthday bound (about a Poisson count): within 6σ of it, not "none".
        assertThat((double) f.repeats()).as("repeated PSNs")
                .isBetween(expectedRepeats - 6 * Math.sqrt(expectedRepeats) - 1, expectedRepeats + 6 * Math.sqrt(expectedRepeats) + 1);
        double bound = 6 / Math.sqrt(SAMPLES);
        assertThat(Math.abs(byOrder)).as("correlation with the connection order").isLessThan(bound);
        assertThat(Math.abs(byTime)).as("correlation with the clock").isLessThan(bound);
    }

    /** The low 12 bits moved to the top, for {@link TokenEntropy#chiSquare}. */
    private static int[] shiftLow(int[] v) {
        int[] s = new int[v.length];
        for (int i = 0; i < v.length; i++) {
            s[i] = (v[i] & 0xFFF) << 12;
        }
        return s;
    }

    private static double correlation(int[] v, java.util.function.IntToLongFunction other) {
        int n = v.length;
        double mx = 0;
        double my = 0;
        for (int i = 0; i < n; i++) {
            mx += v[i];
            my += other.applyAsLong(i);
        }
        mx /= n;
        my /= n;
        double sxy = 0;
        double sxx = 0;
        double syy = 0;
        for (int i = 0; i < n; i++) {
            double dx = v[i] - mx;
            double dy = other.applyAsLong(i) - my;
            sxy += dx * dy;
            sxx += dx * dx;
            syy += dy * dy;
        }
        return sxy / Math.sqrt(sxx * syy);
    }
}
