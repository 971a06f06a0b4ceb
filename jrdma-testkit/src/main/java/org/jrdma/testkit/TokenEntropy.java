package org.jrdma.testkit;

import java.util.Arrays;

/**
 * Entropy figures of a sample of tokens (rkeys, QPNs, PSNs) for RELIABILITY-SECURITY §6.1
 * (SEC-01, SEC-04, SEC-05). The estimator is the most-common-value one of NIST SP 800-90B
 * §6.3.1: p̂ = (count of the most common value) / n, its 99% upper bound
 * p_u = p̂ + 2.576·√(p̂(1−p̂)/(n−1)), and H∞ = −log2 p_u — as ReDMArk uses for Table 2.
 *
 * <p>Applied to whole values it cannot report more than about log2(n) − 1.8 bits (every value
 * unique is all a sample of n can show), so a 32-bit key needs a second view: the same estimator
 * on each byte of the value (8-bit symbols, which a sample of 10^5 resolves to about 7.6 bits),
 * summed over the bytes. The sum is a fair estimate when the bytes are independent, which the
 * per-bit bias and the whole-value figure (no value repeats more than chance) back up.
 */
public final class TokenEntropy {
    private static final double Z99 = 2.576;

    private TokenEntropy() {
    }

    /**
     * The figures of one sample: whole-value and summed per-byte H∞, and the worst bit's bias.
     *
     * @param name what the tokens are, e.g. {@code rkey}
     * @param n the sample size
     * @param bits the tokens' width
     * @param wholeValueMinEntropy the MCV H∞ of whole values, in bits
     * @param ceiling the most that figure can be for {@code n}, in bits
     * @param perByteMinEntropy the MCV H∞ of each byte, summed, in bits
     * @param maxBitBias the worst bit's |share of ones − 1/2|
     * @param repeats how many values occur more than once
     */
    public record Figures(String name, int n, int bits, double wholeValueMinEntropy, double ceiling,
            double perByteMinEntropy, double maxBitBias, int repeats) {
        @Override
        public String toString() {
            return String.format(java.util.Locale.ROOT,
                    "%s: n=%d (%d-bit) H∞(whole value, MCV)=%.2f bits (ceiling for n: %.2f), "
                            + "H∞(sum of per-byte MCV)=%.2f bits, max per-bit bias=%.4f, repeated values=%d",
                    name, n, bits, wholeValueMinEntropy, ceiling, perByteMinEntropy, maxBitBias, repeats);
        }
    }

    /**
     * Measures {@code values}, each {@code bits} wide (8, 16, 24 or 32).
     *
     * @param name what the tokens are, for {@link Figures#toString()}
     * @param values the sample
     * @param bits 8, 16, 24 or 32
     * @return the figures
     */
    public static Figures measure(String name, int[] values, int bits) {
        return new Figures(name, values.length, bits, mcvMinEntropy(values), ceiling(values.length),
                perByteMinEntropy(values, bits), maxBitBias(values, bits), repeats(values));
    }

    /**
     * The MCV H∞ of whole values.
     *
     * @param values the sample
     * @return H∞ in bits
     */
    public static double mcvMinEntropy(int[] values) {
        int[] sorted = values.clone();
        Arrays.sort(sorted);
        int best = 0;
        for (int i = 0, run = 0; i < sorted.length; i++) {
            run = i > 0 && sorted[i] == sorted[i - 1] ? run + 1 : 1;
            best = Math.max(best, run);
        }
        return minEntropy(best, values.length);
    }

    /**
     * The most this estimator can show for a sample of n: every value seen once.
     *
     * @param n the sample size
     * @return H∞ in bits
     */
    public static double ceiling(int n) {
        return minEntropy(1, n);
    }

    /**
     * Values that occur more than once (by the birthday bound about n²/2^(bits+1) for random ones).
     *
     * @param values the sample
     * @return the number of repeats
     */
    public static int repeats(int[] values) {
        int[] sorted = values.clone();
        Arrays.sort(sorted);
        int r = 0;
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] == sorted[i - 1]) {
                r++;
            }
        }
        return r;
    }

    /**
     * The MCV H∞ of each byte of the values, summed over the {@code bits / 8} bytes.
     *
     * @param values the sample
     * @param bits the values' width, a multiple of 8
     * @return the sum in bits
     */
    public static double perByteMinEntropy(int[] values, int bits) {
        double sum = 0;
        for (int shift = 0; shift < bits; shift += 8) {
            int[] counts = new int[256];
            for (int v : values) {
                counts[(v >>> shift) & 0xFF]++;
            }
            sum += minEntropy(Arrays.stream(counts).max().orElse(0), values.length);
        }
        return sum;
    }

    /**
     * max over the bits of |share of ones − 1/2|.
     *
     * @param values the sample
     * @param bits how many low bits to look at
     * @return the worst bias, 0..0.5
     */
    public static double maxBitBias(int[] values, int bits) {
        double worst = 0;
        for (int b = 0; b < bits; b++) {
            long ones = 0;
            for (int v : values) {
                ones += (v >>> b) & 1;
            }
            worst = Math.max(worst, Math.abs((double) ones / values.length - 0.5));
        }
        return worst;
    }

    /**
     * A bias bound no fair coin exceeds but with a chance of about 10^-9 per bit: 6σ.
     *
     * @param n the sample size
     * @return the bound
     */
    public static double biasBound(int n) {
        return 6 * 0.5 / Math.sqrt(n);
    }

    /**
     * The differences of consecutive values, masked to {@code bits} (ReDMArk's Δ = k(i+1) − k(i)).
     *
     * @param values the sample, in the order drawn
     * @param bits the values' width
     * @return the n − 1 differences
     */
    public static int[] deltas(int[] values, int bits) {
        int mask = bits == 32 ? -1 : (1 << bits) - 1;
        int[] d = new int[Math.max(0, values.length - 1)];
        for (int i = 1; i < values.length; i++) {
            d[i - 1] = (values[i] - values[i - 1]) & mask;
        }
        return d;
    }

    /**
     * Pearson's χ² of the values' top {@code binBits} bits (of {@code bits}) against the uniform
     * distribution, with 2^binBits − 1 degrees of freedom.
     *
     * @param values the sample
     * @param bits the values' width
     * @param binBits how many top bits pick the bin
     * @return χ²
     */
    public static double chiSquare(int[] values, int bits, int binBits) {
        int bins = 1 << binBits;
        long[] counts = new long[bins];
        for (int v : values) {
            counts[(int) ((v & 0xFFFFFFFFL) >>> (bits - binBits)) & (bins - 1)]++;
        }
        double expected = (double) values.length / bins;
        double chi = 0;
        for (long c : counts) {
            chi += (c - expected) * (c - expected) / expected;
        }
        return chi;
    }

    /**
     * A χ² bound with {@code df} degrees of freedom that a uniform sample exceeds with chance ≪ 10^-6 (mean + 7σ).
     *
     * @param df the degrees of freedom
     * @return the bound
     */
    public static double chiSquareBound(int df) {
        return df + 7 * Math.sqrt(2.0 * df);
    }

    private static double minEntropy(int mostCommon, int n) {
        double p = (double) mostCommon / n;
        double pu = Math.min(1, p + Z99 * Math.sqrt(p * (1 - p) / Math.max(1, n - 1)));
        return -Math.log(pu) / Math.log(2);
    }
}
