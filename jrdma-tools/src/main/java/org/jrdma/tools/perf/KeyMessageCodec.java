package org.jrdma.tools.perf;

import static java.nio.charset.StandardCharsets.US_ASCII;

import org.jrdma.bootstrap.Excerpt;
import org.jrdma.bootstrap.InvalidFieldException;
import org.jrdma.bootstrap.MalformedMessageException;
import org.jrdma.verbs.Gid;

/**
 * perftest's key message (ROCEV2-FACTS §6.2), printed as fixed-width lower-case hex and sent
 * with its NUL. Two variants:
 *
 * <pre>
 * GID (108 bytes, what RoCE uses):
 *   LLLL:OOOO:QQQQQQ:PPPPPP:RRRRRRRR:VVVVVVVVVVVVVVVV:g0:g1:…:g15:SSSSSSSS:\0
 * no GID (59 bytes):
 *   LLLL:OOOO:QQQQQQ:PPPPPP:RRRRRRRR:VVVVVVVVVVVVVVVV:SSSSSSSS\0
 * </pre>
 *
 * (lid:out_reads:qpn:psn:rkey:vaddr:[gid bytes in raw order:]srqn). perftest reads the GID
 * variant field by field on ':' and the other with sscanf, both of which would take shorter or
 * signed fields; this codec is strict: every position must hold what the writer's format puts
 * there, so a malformed message is refused naming the field. Upper-case hex is accepted, as
 * {@code %x} scanning accepts it.
 */
final class KeyMessageCodec {
    /** KEY_MSG_SIZE_GID. */
    static final int GID_SIZE = 108;
    /** KEY_MSG_SIZE. */
    static final int NO_GID_SIZE = 59;

    private static final String SEPARATOR = "separator";
    private static final String TERMINATOR = "terminator";
    private static final byte[] HEX = "0123456789abcdef".getBytes(US_ASCII);

    private static final Layout WITH_GID = Layout.of(true);
    private static final Layout WITHOUT_GID = Layout.of(false);

    private KeyMessageCodec() {
    }

    /** The message as perftest writes it: 108 bytes with a GID, 59 without. */
    static byte[] encode(KeyMessage m, boolean withGid) {
        Layout layout = withGid ? WITH_GID : WITHOUT_GID;
        byte[] out = new byte[layout.size];
        int p = 0;
        p = putHex(out, p, m.lid(), 4);
        out[p++] = ':';
        p = putHex(out, p, m.outReads(), 4);
        out[p++] = ':';
        p = putHex(out, p, m.qpn(), 6);
        out[p++] = ':';
        p = putHex(out, p, m.psn(), 6);
        out[p++] = ':';
        p = putHex(out, p, Integer.toUnsignedLong(m.rkey()), 8);
        out[p++] = ':';
        p = putHex(out, p, m.vaddr(), 16);
        out[p++] = ':';
        if (withGid) {
            for (int i = 0; i < Gid.BYTES; i++) {
                p = putHex(out, p, m.gid().byteAt(i) & 0xFF, 2);
                out[p++] = ':';
            }
        }
        p = putHex(out, p, Integer.toUnsignedLong(m.srqn()), 8);
        if (withGid) {
            out[p++] = ':'; // KEY_PRINT_FMT_GID ends with a colon
        }
        out[p] = 0;
        return out;
    }

    /** Parses a whole message; the no-GID variant yields an all-zero GID. */
    static KeyMessage decode(byte[] message, boolean withGid) {
        Layout layout = withGid ? WITH_GID : WITHOUT_GID;
        if (message.length != layout.size) {
            throw new MalformedMessageException("size", "expected " + layout.size + " bytes, got " + message.length
                    + ": " + Excerpt.of(message));
        }
        checkPrefix(message, message.length, withGid);
        int lid = (int) layout.value(message, 0);
        int outReads = (int) layout.value(message, 1);
        int qpn = (int) layout.value(message, 2);
        int psn = (int) layout.value(message, 3);
        int rkey = (int) layout.value(message, 4);
        long vaddr = layout.value(message, 5);
        byte[] gid = new byte[Gid.BYTES];
        int srqnField = 6;
        if (withGid) {
            for (int i = 0; i < Gid.BYTES; i++) {
                gid[i] = (byte) layout.value(message, 6 + i);
            }
            srqnField = 6 + Gid.BYTES;
        }
        int srqn = (int) layout.value(message, srqnField);
        try {
            return new KeyMessage(lid, outReads, qpn, psn, rkey, vaddr, Gid.of(gid), srqn);
        } catch (InvalidFieldException e) {
            throw MalformedMessageException.from(e);
        }
    }

    /**
     * Refuses a message as soon as a received byte cannot be what the format puts at its
     * position, so a peer sending garbage is cut off without waiting for the whole message.
     */
    static void checkPrefix(byte[] partial, int length, boolean withGid) {
        Layout layout = withGid ? WITH_GID : WITHOUT_GID;
        for (int i = 0; i < Math.min(length, layout.size); i++) {
            String field = layout.fieldAt[i];
            byte b = partial[i];
            boolean ok = switch (field) {
                case SEPARATOR -> b == ':';
                case TERMINATOR -> b == 0;
                default -> hexValue(b) >= 0;
            };
            if (!ok) {
                String expected = switch (field) {
                    case SEPARATOR -> "':'";
                    case TERMINATOR -> "the NUL terminator";
                    default -> "a hex digit of " + field;
                };
                throw new MalformedMessageException(field, Excerpt.ofByte(b) + " at offset " + i + " is not " + expected
                        + " in " + Excerpt.of(partial, 0, length));
            }
        }
    }

    private static int putHex(byte[] out, int p, long value, int digits) {
        for (int i = digits - 1; i >= 0; i--) {
            out[p + i] = HEX[(int) (value & 0xF)];
            value >>>= 4;
        }
        return p + digits;
    }

    private static int hexValue(byte b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        if (b >= 'a' && b <= 'f') {
            return b - 'a' + 10;
        }
        if (b >= 'A' && b <= 'F') {
            return b - 'A' + 10;
        }
        return -1;
    }

    /** Where each field starts and how many hex digits it has; what every byte position holds. */
    private static final class Layout {
        final int size;
        final int[] start;
        final int[] digits;
        final String[] fieldAt;

        private Layout(String[] names, int[] digits, boolean trailingColon) {
            int n = names.length;
            this.digits = digits;
            this.start = new int[n];
            int size = 0;
            for (int i = 0; i < n; i++) {
                size += digits[i] + (i < n - 1 || trailingColon ? 1 : 0);
            }
            this.size = size + 1;
            this.fieldAt = new String[this.size];
            int p = 0;
            for (int i = 0; i < n; i++) {
                start[i] = p;
                for (int d = 0; d < digits[i]; d++) {
                    fieldAt[p++] = names[i];
                }
                if (i < n - 1 || trailingColon) {
                    fieldAt[p++] = SEPARATOR;
                }
            }
            fieldAt[p] = TERMINATOR;
        }

        static Layout of(boolean withGid) {
            String[] head = {"lid", "out_reads", "qpn", "psn", "rkey", "vaddr"};
            int[] headDigits = {4, 4, 6, 6, 8, 16};
            int gidFields = withGid ? Gid.BYTES : 0;
            String[] names = new String[head.length + gidFields + 1];
            int[] digits = new int[names.length];
            System.arraycopy(head, 0, names, 0, head.length);
            System.arraycopy(headDigits, 0, digits, 0, head.length);
            for (int i = 0; i < gidFields; i++) {
                names[head.length + i] = "gid";
                digits[head.length + i] = 2;
            }
            names[names.length - 1] = "srqn";
            digits[names.length - 1] = 8;
            return new Layout(names, digits, withGid);
        }

        /** The value of field {@code index}; the message has passed {@link #checkPrefix}. */
        long value(byte[] message, int index) {
            long v = 0;
            for (int i = 0; i < digits[index]; i++) {
                v = (v << 4) | hexValue(message[start[index] + i]);
            }
            return v;
        }
    }
}
