package org.jrdma.tools.perf;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The printf conversions whose C meaning Java's Formatter does not share.
 *
 * <p>{@code %#0Nx}: in C the {@code #} flag prefixes {@code 0x} only to a non-zero value, the width counts the
 * prefix, and the {@code 0} flag pads between prefix and digits: {@code %#04x} prints 0 as
 * {@code 0000} and 0x11 as {@code 0x11}, {@code %#06x} prints 0x11 as {@code 0x0011}. Java's
 * {@code %#04x} prints 0 as {@code 0x00}, hence this.
 */
final class CFormat {
    private CFormat() {
    }

    /**
     * C's {@code %.<decimals>f}: glibc rounds the exact binary value to nearest, ties to even
     * (2.125 prints as {@code 2.12}, 1.005 — really 1.00499… — as {@code 1.00}); Java's {@code %f}
     * rounds the shortest decimal form half up ({@code 2.13}, {@code 1.01}).
     */
    static String fixed(double value, int decimals) {
        if (!Double.isFinite(value)) {
            return Double.isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf";
        }
        return new BigDecimal(value).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
    }

    /** C's {@code %-<width>.<decimals>f}. */
    static String fixedLeft(double value, int width, int decimals) {
        return left(fixed(value, decimals), width);
    }

    /** C's {@code %-<width>s} (and {@code %-<width>lu} of a number's digits). */
    static String left(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }

    /** C's {@code %#0<width>x} (and {@code %#0<width>llx}) of the unsigned 64-bit {@code value}. */
    static String alternateHex(long value, int width) {
        String digits = Long.toHexString(value);
        StringBuilder sb = new StringBuilder(Math.max(width, digits.length() + 2));
        if (value == 0) {
            sb.repeat('0', Math.max(0, width - 1)).append('0');
            return sb.toString();
        }
        sb.append("0x");
        sb.repeat('0', Math.max(0, width - 2 - digits.length()));
        return sb.append(digits).toString();
    }

    /** The same of an unsigned 32-bit value ({@code %#x} of an {@code unsigned int}). */
    static String alternateHex(int value, int width) {
        return alternateHex(Integer.toUnsignedLong(value), width);
    }

    /**
     * C's {@code %g}: six significant digits, trailing zeros (and a bare point) dropped,
     * exponent form {@code 1.5e-05} when the exponent is below -4 or at least 6.
     */
    static String g(double value) {
        if (!Double.isFinite(value)) {
            return Double.isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf";
        }
        if (value == 0) {
            return (1 / value < 0) ? "-0" : "0";
        }
        BigDecimal rounded = new BigDecimal(value).round(new java.math.MathContext(6, RoundingMode.HALF_EVEN));
        int exponent = rounded.precision() - rounded.scale() - 1;
        if (exponent < -4 || exponent >= 6) {
            BigDecimal mantissa = rounded.movePointLeft(exponent);
            String m = strip(mantissa.setScale(5, RoundingMode.HALF_EVEN).toPlainString());
            return m + "e" + (exponent < 0 ? "-" : "+") + (Math.abs(exponent) < 10 ? "0" : "") + Math.abs(exponent);
        }
        return strip(rounded.setScale(Math.max(0, 5 - exponent), RoundingMode.HALF_EVEN).toPlainString());
    }

    private static String strip(String s) {
        if (s.indexOf('.') < 0) {
            return s;
        }
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }
}
