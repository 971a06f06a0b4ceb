package org.jrdma.bootstrap;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.nio.ByteBuffer;
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
 *
 * <p>As a {@link ConnInfoCodec} it carries {@link ConnInfo#buffer}'s rkey and address (zeros
 * when there is none; zeros read back as none), sends {@link #outReads()} as {@code out_reads}
 * and 0 as {@code srqn}, and ignores the peer's {@code out_reads} and {@code srqn}, which
 * ConnInfo has no field for. {@link #encodeKey} and {@link #decodeKey} give the whole message.
 */
public final class PerftestKeyCodec implements ConnInfoCodec {
    /** KEY_MSG_SIZE_GID: 108 bytes, the GID variant. */
    public static final int GID_SIZE = 108;
    /** KEY_MSG_SIZE: 59 bytes, the variant without a GID. */
    public static final int NO_GID_SIZE = 59;
    /** The {@code out_reads} the shared codecs send: 1, rc_pingpong's and {@code RcOptions.defaults}' one read in flight. */
    public static final int DEFAULT_OUT_READS = 1;

    // Before the instances below, whose constructor takes a layout.
    private static final String SEPARATOR = "separator";
    private static final String TERMINATOR = "terminator";
    private static final byte[] HEX = "0123456789abcdef".getBytes(US_ASCII);

    private static final Layout WITH_GID = Layout.of(true);
    private static final Layout WITHOUT_GID = Layout.of(false);

    /** The GID variant (108 bytes), sending out_reads {@value #DEFAULT_OUT_READS}. */
    public static final PerftestKeyCodec GID = new PerftestKeyCodec(true, DEFAULT_OUT_READS);
    /** The variant without a GID (59 bytes; decodes to an all-zero GID), sending out_reads {@value #DEFAULT_OUT_READS}. */
    public static final PerftestKeyCodec NO_GID = new PerftestKeyCodec(false, DEFAULT_OUT_READS);

    private final boolean withGid;
    private final int outReads;
    private final Layout layout;

    private PerftestKeyCodec(boolean withGid, int outReads) {
        if (outReads < 0 || outReads > 0xFFFF) {
            throw new IllegalArgumentException("out_reads must be 0..0xffff, not " + outReads);
        }
        this.withGid = withGid;
        this.outReads = outReads;
        this.layout = withGid ? WITH_GID : WITHOUT_GID;
    }

    /**
     * The same variant, sending another {@code out_reads} when it encodes a {@link ConnInfo}
     * (say, the {@code RcOptions.maxDestRdAtomic} this side's QP is given).
     *
     * @param n READs/atomics this side accepts in flight, 0..0xFFFF
     * @return the codec
     * @throws IllegalArgumentException if {@code n} is out of range
     */
    public PerftestKeyCodec withOutReads(int n) {
        return new PerftestKeyCodec(withGid, n);
    }

    /**
     * Whether this is the GID variant.
     *
     * @return true for the 108-byte message, false for the 59-byte one
     */
    public boolean carriesGid() {
        return withGid;
    }

    /**
     * The {@code out_reads} {@link #encode(ConnInfo, ByteBuffer)} sends.
     *
     * @return 0..0xFFFF
     */
    public int outReads() {
        return outReads;
    }

    @Override
    public String name() {
        return withGid ? "perftest key message" : "perftest key message (no GID)";
    }

    @Override
    public int size() {
        return layout.size;
    }

    @Override
    public void encode(ConnInfo info, ByteBuffer dst) {
        dst.put(encodeKey(KeyMessage.of(info, outReads)));
    }

    @Override
    public ConnInfo decode(byte[] message) {
        KeyMessage key = decodeKey(message);
        try {
            return key.toConnInfo();
        } catch (InvalidFieldException e) {
            throw MalformedMessageException.from(e);
        }
    }

    /**
     * The message as perftest writes it: {@link #size()} bytes, its NUL included.
     *
     * @param m the key message; in the no-GID variant its GID is not sent
     * @return the message
     */
    public byte[] encodeKey(KeyMessage m) {
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

    /**
     * Parses a whole message; the no-GID variant yields an all-zero GID.
     *
     * @param message exactly {@link #size()} bytes
     * @return the key message
     * @throws MalformedMessageException naming the field that is wrong ({@code size},
     *     {@code lid}, {@code out_reads}, {@code qpn}, {@code psn}, {@code rkey}, {@code vaddr},
     *     {@code gid}, {@code srqn}, {@code separator} or {@code terminator})
     */
    public KeyMessage decodeKey(byte[] message) {
        if (message.length != layout.size) {
            throw new MalformedMessageException("size", "expected " + layout.size + " bytes, got " + message.length
                    + ": " + Excerpt.of(message));
        }
        checkPrefix(message, message.length);
        int lid = (int) layout.value(message, 0);
        int reads = (int) layout.value(message, 1);
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
            return new KeyMessage(lid, reads, qpn, psn, rkey, vaddr, Gid.of(gid), srqn);
        } catch (InvalidFieldException e) {
            throw MalformedMessageException.from(e);
        }
    }

    /**
     * Refuses a message as soon as a received byte cannot be what the format puts at its
     * position, so a peer sending garbage is cut off without waiting for the whole message.
     */
    @Override
    public void checkPrefix(byte[] partial, int length) {
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

    @Override
    public String toString() {
        return name() + ", out_reads " + outReads;
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
