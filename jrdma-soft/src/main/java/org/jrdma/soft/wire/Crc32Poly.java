package org.jrdma.soft.wire;

/**
 * Arithmetic in GF(2)[x] modulo the CRC-32 polynomial P(x) = x^32 + x^26 + ... + 1
 * (0x04C11DB7), which the ICRC solver needs ({@link IcrcVerifier}).
 *
 * <p>Polynomials of degree &lt; 32 are held in the <em>reflected</em> form that
 * {@link java.util.zip.CRC32} uses: the coefficient of x^i is bit 31 − i, so x^0 = 0x80000000.
 * In that form the raw CRC register after feeding a message M into a zero register is
 * M(x)·x^32 mod P, and feeding n zero bytes multiplies the register by x^(8n) mod P. Because
 * P(0) = 1, x is invertible mod P, so a shift can also be undone.
 *
 * <p>Why this works on final CRC values: for two messages of equal length, the initial value and
 * the final inversion cancel, so crc(A) XOR crc(B) = (A XOR B)(x)·x^32 mod P.
 */
final class Crc32Poly {
    /** P(x) without its x^32 term, reflected (the constant zlib and CRC32 use). */
    static final int POLY = 0xEDB88320;
    /** The polynomial 1. */
    static final int ONE = 0x80000000;
    /** The polynomial x. */
    static final int X = 0x40000000;
    /**
     * x^-1 mod P = (P + 1) / x: drop P's constant term and shift every other term down one
     * degree, which in reflected form is a left shift, then add the x^31 term (bit 0).
     */
    static final int X_INVERSE = (POLY << 1) | 1;

    /** X_POW_2[k] = x^(2^k) mod P. */
    private static final int[] X_POW_2 = new int[32];
    /** X_INV_POW_2[k] = x^(-2^k) mod P. */
    private static final int[] X_INV_POW_2 = new int[32];

    static {
        int p = X;
        int q = X_INVERSE;
        for (int k = 0; k < 32; k++) {
            X_POW_2[k] = p;
            X_INV_POW_2[k] = q;
            p = multiplyMod(p, p);
            q = multiplyMod(q, q);
        }
    }

    private Crc32Poly() {
    }

    /** a(x)·b(x) mod P, both reflected. */
    static int multiplyMod(int a, int b) {
        int product = 0;
        while (a != 0) {
            // The top bit of a is the coefficient of the current power of x; b holds b·x^power.
            product ^= (a >> 31) & b;
            a <<= 1;
            b = (b >>> 1) ^ (-(b & 1) & POLY);
        }
        return product;
    }

    /** x^n mod P for n ≥ 0 (n < 2^32 as an unsigned int). */
    static int xPow(int n) {
        return power(X_POW_2, n);
    }

    /** x^-n mod P for n ≥ 0 (n < 2^32 as an unsigned int). */
    static int xInversePow(int n) {
        return power(X_INV_POW_2, n);
    }

    private static int power(int[] powersOfTwo, int n) {
        int result = ONE;
        for (int k = 0; n != 0; k++, n >>>= 1) {
            if ((n & 1) != 0) {
                result = multiplyMod(result, powersOfTwo[k]);
            }
        }
        return result;
    }
}
