package org.jrdma.bootstrap;

/**
 * Quotes outside input for an error message: at most {@value #MAX_BYTES} bytes, printable ASCII
 * as is and everything else as {@code \xNN}, so a hostile peer can neither flood a log nor
 * inject control characters into it (OOB-06, OOB-16).
 */
public final class Excerpt {
    /** The most bytes (or characters) quoted; the rest is counted, not shown. */
    public static final int MAX_BYTES = 64;

    private Excerpt() {
    }

    /**
     * Quotes {@code length} bytes of {@code data} from {@code offset}, capped at {@value #MAX_BYTES}.
     *
     * @param data the bytes
     * @param offset where the excerpt starts
     * @param length how many bytes the input has from {@code offset}
     * @return the quoted excerpt, with the count of bytes left out
     */
    public static String of(byte[] data, int offset, int length) {
        int shown = Math.min(length, MAX_BYTES);
        StringBuilder sb = new StringBuilder(shown + 16).append('"');
        for (int i = offset; i < offset + shown; i++) {
            appendByte(sb, data[i]);
        }
        sb.append('"');
        if (length > shown) {
            sb.append("…(+").append(length - shown).append(" bytes)");
        }
        return sb.toString();
    }

    /**
     * Quotes all of {@code data}, capped at {@value #MAX_BYTES} bytes.
     *
     * @param data the bytes
     * @return the quoted excerpt
     */
    public static String of(byte[] data) {
        return of(data, 0, data.length);
    }

    /**
     * One byte quoted: {@code 'x'} or {@code '\x00'}.
     *
     * @param b the byte
     * @return the quoted byte
     */
    public static String ofByte(byte b) {
        return appendByte(new StringBuilder("'"), b).append('\'').toString();
    }

    /**
     * A string quoted the same way (its characters above U+007E as {@code \\u{XXXX}}), capped.
     *
     * @param text the text
     * @return the quoted excerpt
     */
    public static String of(CharSequence text) {
        int shown = Math.min(text.length(), MAX_BYTES);
        StringBuilder sb = new StringBuilder(shown + 16).append('"');
        for (int i = 0; i < shown; i++) {
            char c = text.charAt(i);
            if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
                sb.append(c);
            } else if (c < 0x80) {
                sb.append(String.format("\\x%02x", (int) c));
            } else {
                sb.append(String.format("\\u{%04x}", (int) c));
            }
        }
        sb.append('"');
        if (text.length() > shown) {
            sb.append("…(+").append(text.length() - shown).append(" chars)");
        }
        return sb.toString();
    }

    private static StringBuilder appendByte(StringBuilder sb, byte b) {
        int v = b & 0xFF;
        if (v >= 0x20 && v < 0x7F && v != '"' && v != '\\' && v != '\'') {
            return sb.append((char) v);
        }
        return sb.append(String.format("\\x%02x", v));
    }
}
