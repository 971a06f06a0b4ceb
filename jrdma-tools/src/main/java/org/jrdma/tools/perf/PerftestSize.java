package org.jrdma.tools.perf;

/**
 * perftest's {@code -s}/{@code --size}: a number as C's {@code strtol(s, NULL, 0)} reads it
 * (decimal, {@code 0x} hexadecimal, a leading {@code 0} octal), optionally ending in an
 * upper-case {@code K} (×1024) or {@code M} (×1024²) — "64K" is 65536. perftest knows no other
 * suffix and no lower case. Where perftest's strtol would quietly take a prefix ("64k" is 64
 * to it, "1G" is 1), this refuses the whole argument, so a size is never silently other than
 * written.
 */
final class PerftestSize {
    private PerftestSize() {
    }

    /** The bytes {@code text} says, or an IllegalArgumentException whose message says why not. */
    static long parse(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException("an empty --size");
        }
        long factor = 1;
        String digits = text;
        char last = text.charAt(text.length() - 1);
        if (last == 'K') {
            factor = 1024;
            digits = text.substring(0, text.length() - 1);
        } else if (last == 'M') {
            factor = 1024 * 1024;
            digits = text.substring(0, text.length() - 1);
        }
        long value = strtol(digits, text);
        if (value > Long.MAX_VALUE / factor) {
            throw new IllegalArgumentException("--size '" + text + "' is too large");
        }
        return value * factor;
    }

    /** strtol with base 0, the whole of {@code s}. */
    private static long strtol(String s, String whole) {
        int i = 0;
        boolean negative = false;
        if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            negative = s.charAt(i) == '-';
            i++;
        }
        int radix = 10;
        if (s.startsWith("0x", i) || s.startsWith("0X", i)) {
            radix = 16;
            i += 2;
        } else if (s.length() - i > 1 && s.charAt(i) == '0') {
            radix = 8;
            i++;
        }
        if (i >= s.length()) {
            throw bad(whole);
        }
        long v = 0;
        for (; i < s.length(); i++) {
            int d = Character.digit(s.charAt(i), radix);
            if (d < 0) {
                throw bad(whole);
            }
            if (v > (Long.MAX_VALUE - d) / radix) {
                throw new IllegalArgumentException("--size '" + whole + "' is too large");
            }
            v = v * radix + d;
        }
        return negative ? -v : v;
    }

    private static IllegalArgumentException bad(String whole) {
        return new IllegalArgumentException("--size '" + whole + "' is not a number of bytes: perftest's -s takes an integer "
                + "(decimal, 0x hex or 0 octal), optionally followed by K (1024) or M (1048576), e.g. 64K");
    }
}
