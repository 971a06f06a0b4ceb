package org.jrdma.bootstrap;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.nio.ByteBuffer;
import org.jrdma.verbs.Gid;

/**
 * rc_pingpong's message (ROCEV2-FACTS §5.1): {@code sprintf("%04x:%06x:%06x:%s")} of LID, QPN,
 * PSN and the 32 hex digits of the raw GID, sent with its NUL — 52 bytes:
 *
 * <pre>
 *  0    4 5      11 12     18 19                               51
 *  LLLL : QQQQQQ  : PPPPPP  : GGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGG \0
 * </pre>
 *
 * rc_pingpong parses with {@code sscanf("%x:%x:%x:%s")}, which would also take shorter or signed
 * fields; this codec is stricter on purpose (OOB-08: no trailing garbage, no masking): every
 * position must hold exactly the character class the writer's format puts there. Upper-case hex
 * is accepted on input because {@code %x} accepts it; output is lower-case like {@code %x}.
 */
public final class PingpongTextCodec implements ConnInfoCodec {
    /** The codec; it holds no state. */
    public static final PingpongTextCodec INSTANCE = new PingpongTextCodec();

    /** 51 characters and the NUL. */
    public static final int SIZE = 52;
    /** 51: the text without its NUL. */
    public static final int TEXT_LENGTH = SIZE - 1;

    private static final int LID_AT = 0, LID_DIGITS = 4;
    private static final int QPN_AT = 5, QPN_DIGITS = 6;
    private static final int PSN_AT = 12, PSN_DIGITS = 6;
    private static final int GID_AT = 19, GID_DIGITS = 32;
    private static final int NUL_AT = 51;
    private static final byte[] LOWER_HEX = "0123456789abcdef".getBytes(US_ASCII);

    private PingpongTextCodec() {
    }

    @Override
    public String name() {
        return "rc_pingpong text";
    }

    @Override
    public int size() {
        return SIZE;
    }

    @Override
    public void encode(ConnInfo info, ByteBuffer dst) {
        ConnInfo.requireNoBuffer(info, name());
        putHex(dst, info.lid(), LID_DIGITS);
        dst.put((byte) ':');
        putHex(dst, info.qpn(), QPN_DIGITS);
        dst.put((byte) ':');
        putHex(dst, info.psn(), PSN_DIGITS);
        dst.put((byte) ':');
        for (int i = 0; i < Gid.BYTES; i++) {
            putHex(dst, info.gid().byteAt(i) & 0xFF, 2);
        }
        dst.put((byte) 0);
    }

    @Override
    public ConnInfo decode(byte[] message) {
        if (message.length != SIZE) {
            throw new MalformedMessageException("size", "expected " + SIZE + " bytes, got " + message.length
                    + ": " + Excerpt.of(message));
        }
        checkPrefix(message, SIZE);
        int lid = parseHex(message, LID_AT, LID_DIGITS);
        int qpn = parseHex(message, QPN_AT, QPN_DIGITS);
        int psn = parseHex(message, PSN_AT, PSN_DIGITS);
        byte[] gid = new byte[Gid.BYTES];
        for (int i = 0; i < Gid.BYTES; i++) {
            gid[i] = (byte) parseHex(message, GID_AT + 2 * i, 2);
        }
        try {
            return new ConnInfo(lid, qpn, psn, Gid.of(gid));
        } catch (InvalidFieldException e) {
            throw MalformedMessageException.from(e);
        }
    }

    @Override
    public void checkPrefix(byte[] partial, int length) {
        for (int i = 0; i < Math.min(length, SIZE); i++) {
            byte b = partial[i];
            boolean ok = switch (fieldAt(i)) {
                case "separator" -> b == ':';
                case "terminator" -> b == 0;
                default -> hexValue(b) >= 0;
            };
            if (!ok) {
                throw new MalformedMessageException(fieldAt(i), Excerpt.ofByte(b) + " at offset " + i + " is not "
                        + expected(i) + " in " + Excerpt.of(partial, 0, length));
            }
        }
    }

    /**
     * The 51-character text without the NUL, as a user pastes it on a command line
     * ({@code 0000:000012:e3de62:00000000000000000000ffff0a4d0003}).
     *
     * @param text the 51 characters
     * @return the connection info it carries
     * @throws MalformedMessageException naming the field that is wrong
     */
    public ConnInfo parseText(CharSequence text) {
        if (text.length() != TEXT_LENGTH) {
            throw new MalformedMessageException("size", "expected " + TEXT_LENGTH + " characters, got "
                    + text.length() + ": " + Excerpt.of(text));
        }
        byte[] message = new byte[SIZE];
        for (int i = 0; i < TEXT_LENGTH; i++) {
            char c = text.charAt(i);
            if (c > 0x7F) {
                throw new MalformedMessageException(fieldAt(i), "non-ASCII character at offset " + i + " in " + Excerpt.of(text));
            }
            message[i] = (byte) c;
        }
        return decode(message);
    }

    /**
     * The 51-character text, the form {@link #parseText} takes.
     *
     * @param info the connection info
     * @return the text, without the NUL
     */
    public String formatText(ConnInfo info) {
        return new String(encode(info), 0, TEXT_LENGTH, US_ASCII);
    }

    private static String fieldAt(int offset) {
        if (offset < QPN_AT - 1) {
            return "lid";
        } else if (offset == QPN_AT - 1 || offset == PSN_AT - 1 || offset == GID_AT - 1) {
            return "separator";
        } else if (offset < PSN_AT) {
            return "qpn";
        } else if (offset < GID_AT) {
            return "psn";
        } else if (offset < NUL_AT) {
            return "gid";
        }
        return "terminator";
    }

    private static String expected(int offset) {
        return switch (fieldAt(offset)) {
            case "separator" -> "':'";
            case "terminator" -> "the NUL that ends the text";
            default -> "a hex digit";
        };
    }

    private static void putHex(ByteBuffer dst, int value, int digits) {
        for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4) {
            dst.put(LOWER_HEX[(value >>> shift) & 0xF]);
        }
    }

    /** Only called after {@link #checkPrefix} has vetted every digit. */
    private static int parseHex(byte[] message, int at, int digits) {
        int v = 0;
        for (int i = at; i < at + digits; i++) {
            v = (v << 4) | hexValue(message[i]);
        }
        return v;
    }

    private static int hexValue(byte b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        } else if (b >= 'a' && b <= 'f') {
            return b - 'a' + 10;
        } else if (b >= 'A' && b <= 'F') {
            return b - 'A' + 10;
        }
        return -1;
    }

    @Override
    public String toString() {
        return name();
    }
}
