package org.jrdma.tools.perf;

import static java.nio.charset.StandardCharsets.US_ASCII;

import org.jrdma.bootstrap.Excerpt;
import org.jrdma.bootstrap.MalformedMessageException;

/**
 * The 16-byte version exchange (ROCEV2-FACTS §6.3 step 2) and the version gates of the steps
 * after it. perftest compares versions with {@code atof}: the leading decimal number counts.
 *
 * <p>jrdma claims {@value #OURS}. That is at least 5.70, the oldest version a current perftest
 * talks to, so both an old and a new perftest accept us; and it is below 6.28, so a perftest
 * ≥ 6.28 skips the 312-byte parameter negotiation (a raw {@code struct ibv_device_attr} whose
 * size depends on how perftest was built), which jrdma does not implement — and jrdma skips it
 * too, whatever the peer claims, because each side gates that step on the <em>other's</em>
 * version. Above 5.33 both sides send iterations as 8 bytes in the report exchange; above 5.32
 * they exchange cycle buffer and cache line; above 5.31 the MTU is 2 bytes.
 *
 * @param text the peer's version as sent, without the NUL padding
 * @param number its leading decimal number, as {@code atof} reads it
 */
record PeerVersion(String text, double number) {
    static final String OURS = "6.06";
    static final int BYTES = 16;
    /** check_version_compatibility: perftest refuses anything older. */
    static final double OLDEST = 5.70;
    static final double SYS_DATA = 5.32;
    static final double MTU_TWO_BYTES = 5.31;
    static final double MTU_EXCHANGE = 5.1;
    static final double ITERS_EIGHT_BYTES = 5.33;
    static final double NEGOTIATION = 6.28;

    /** Our 16 bytes: the version string, NUL-padded (strncpy into {@code char[16]}). */
    static byte[] encodeOurs() {
        byte[] out = new byte[BYTES];
        byte[] text = OURS.getBytes(US_ASCII);
        System.arraycopy(text, 0, out, 0, text.length);
        return out;
    }

    /**
     * One word of printable ASCII starting with a decimal number, then NULs to the end (or no
     * NUL at all). What is not a version is named for what it is: a space (a version is one
     * word), a byte that is not printable ASCII, or text that does not start with a number (a
     * peer that is not perftest: an HTTP request, say).
     */
    static PeerVersion decode(byte[] raw) {
        if (raw.length != BYTES) {
            throw new MalformedMessageException("version", "expected " + BYTES + " bytes, got " + raw.length);
        }
        int len = 0;
        while (len < BYTES && raw[len] != 0) {
            len++;
        }
        for (int i = len; i < BYTES; i++) {
            if (raw[i] != 0) {
                throw new MalformedMessageException("version", "byte " + i + " after the NUL is " + Excerpt.ofByte(raw[i])
                        + ", not NUL padding, in " + Excerpt.of(raw));
            }
        }
        if (len == 0 || raw[0] < '0' || raw[0] > '9') {
            throw new MalformedMessageException("version", Excerpt.of(raw, 0, len) + " does not start with a version number"
                    + " (perftest sends one such as \"6.06\", NUL-padded to " + BYTES + " bytes)");
        }
        for (int i = 0; i < len; i++) {
            byte b = raw[i];
            if (b == ' ') {
                throw new MalformedMessageException("version", "a space at offset " + i + " in " + Excerpt.of(raw)
                        + ": a version is one word, such as \"6.06\"");
            }
            if (b < 0x20 || b >= 0x7F) {
                throw new MalformedMessageException("version", Excerpt.ofByte(b) + " at offset " + i
                        + " is not printable ASCII, in " + Excerpt.of(raw));
            }
        }
        String text = new String(raw, 0, len, US_ASCII);
        int digits = 0;
        while (digits < len && Character.isDigit(text.charAt(digits))) {
            digits++;
        }
        int end = digits;
        if (end < len && text.charAt(end) == '.') {
            int frac = end + 1;
            while (frac < len && Character.isDigit(text.charAt(frac))) {
                frac++;
            }
            end = frac > end + 1 ? frac : end;
        }
        return new PeerVersion(text, Double.parseDouble(text.substring(0, end)));
    }

    boolean atLeast(double version) {
        return number >= version;
    }

    /** perftest ≥ 6.28 refuses peers below 5.70; so do we. */
    void requireCompatible() {
        if (!atLeast(OLDEST)) {
            throw new MalformedMessageException("version", "the peer is perftest " + Excerpt.of(text)
                    + "; this exchange speaks to " + String.format(java.util.Locale.ROOT, "%.2f", OLDEST)
                    + " and newer, as perftest itself does");
        }
    }
}
