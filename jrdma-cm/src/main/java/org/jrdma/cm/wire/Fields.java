package org.jrdma.cm.wire;

import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * Validation shared by the message records, and content-based {@code equals}/{@code hashCode}/
 * {@code toString} for records with byte-array components (a record's generated ones compare arrays by
 * identity and print them as {@code [B@…}).
 */
final class Fields {
    private static final HexFormat HEX = HexFormat.of();

    private Fields() {
    }

    /** {@code value} if it fits in {@code width} unsigned bits, else an exception naming the field. */
    static int check(String field, int value, int width) {
        if (width < 32 && value >>> width != 0) {
            throw new IllegalArgumentException(
                    field + " = " + value + " (0x" + Integer.toHexString(value) + ") does not fit in " + width + " bits");
        }
        return value;
    }

    /**
     * A copy of {@code data} zero-filled to {@code capacity}, as the receiver of a CM message always
     * sees the full area (§7.3); null means no data. Longer input is refused, naming the message.
     */
    static byte[] padded(String message, String what, byte[] data, int capacity) {
        if (data == null) {
            return new byte[capacity];
        }
        if (data.length > capacity) {
            throw new IllegalArgumentException(
                    message + " " + what + " is " + data.length + " bytes; at most " + capacity);
        }
        return Arrays.copyOf(data, capacity);
    }

    /** A copy of a 16-byte GID; a GID is never padded (a short one is a caller's bug). */
    static byte[] gid(String field, byte[] gid) {
        Objects.requireNonNull(gid, field);
        if (gid.length != 16) {
            throw new IllegalArgumentException(field + " is " + gid.length + " bytes; a GID has 16");
        }
        return gid.clone();
    }

    static boolean equal(Record a, Object b) {
        if (a == b) {
            return true;
        }
        if (b == null || a.getClass() != b.getClass()) {
            return false;
        }
        for (RecordComponent c : a.getClass().getRecordComponents()) {
            if (!Objects.deepEquals(value(c, a), value(c, (Record) b))) {
                return false;
            }
        }
        return true;
    }

    static int hash(Record r) {
        int h = r.getClass().hashCode();
        for (RecordComponent c : r.getClass().getRecordComponents()) {
            h = 31 * h + Arrays.deepHashCode(new Object[] {value(c, r)});
        }
        return h;
    }

    /** Numbers in hex as Wireshark shows CM fields; byte arrays in hex without trailing zeros. */
    static String describe(Record r) {
        StringBuilder s = new StringBuilder(r.getClass().getSimpleName()).append('[');
        RecordComponent[] cs = r.getClass().getRecordComponents();
        for (int i = 0; i < cs.length; i++) {
            s.append(i == 0 ? "" : ", ").append(cs[i].getName()).append('=');
            Object v = value(cs[i], r);
            switch (v) {
                case Integer n -> s.append("0x").append(Integer.toHexString(n));
                case Long n -> s.append("0x").append(Long.toHexString(n));
                case byte[] bytes -> s.append(hex(bytes));
                default -> s.append(v);
            }
        }
        return s.append(']').toString();
    }

    private static String hex(byte[] b) {
        int end = b.length;
        while (end > 0 && b[end - 1] == 0) {
            end--;
        }
        String zeros = end == b.length ? "" : "zeros(" + (b.length - end) + ")";
        return end == 0 ? zeros : HEX.formatHex(b, 0, end) + (zeros.isEmpty() ? "" : "+" + zeros);
    }

    private static Object value(RecordComponent c, Record r) {
        try {
            return c.getAccessor().invoke(r);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read " + c, e);
        }
    }
}
