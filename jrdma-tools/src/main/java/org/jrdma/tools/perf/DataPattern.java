package org.jrdma.tools.perf;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The bytes {@code --check} expects. Message {@code seq} from the side with {@code salt} holds,
 * at byte {@code i}, byte {@code i & 7} (little-endian) of
 * {@code mix((seq << 20) ^ (salt << 52) ^ (base + (i & ~7)))} where {@code mix} is a
 * multiply-xorshift hash: every message differs from every other and from the other direction's,
 * so a stale, duplicated, misplaced or echoed delivery fails. {@code base} is 0 for a message;
 * the READ source is the whole target region filled once with {@code seq} {@value #READ_SOURCE}
 * and {@code base} = the offset in the region, so any slice of it can be checked.
 */
final class DataPattern {
    static final int CLIENT_SALT = 0xC1;
    static final int SERVER_SALT = 0x5E;
    /** The READ source's "sequence number". */
    static final long READ_SOURCE = 0xFEEDL;
    private static final ValueLayout.OfLong LE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private DataPattern() {
    }

    static long word(long seq, int salt, long index) {
        long x = (seq << 20) ^ ((long) salt << 52) ^ index;
        x *= 0x9E3779B97F4A7C15L;
        return x ^ (x >>> 29);
    }

    private static byte byteAt(long seq, int salt, long base, long i) {
        return (byte) (word(seq, salt, base + (i & ~7L)) >>> (8 * (i & 7)));
    }

    /** Writes {@code length} bytes of message {@code seq} at {@code offset}; {@code base} must be a multiple of 8. */
    static void fill(MemorySegment seg, long offset, long length, long seq, int salt, long base) {
        long i = 0;
        for (; i + 8 <= length; i += 8) {
            seg.set(LE_LONG, offset + i, word(seq, salt, base + i));
        }
        for (; i < length; i++) {
            seg.set(ValueLayout.JAVA_BYTE, offset + i, byteAt(seq, salt, base, i));
        }
    }

    /** The index of the first byte that differs, or -1. */
    static long verify(MemorySegment seg, long offset, long length, long seq, int salt, long base) {
        long i = 0;
        for (; i + 8 <= length; i += 8) {
            if (seg.get(LE_LONG, offset + i) != word(seq, salt, base + i)) {
                for (long b = i; b < i + 8; b++) {
                    if (seg.get(ValueLayout.JAVA_BYTE, offset + b) != byteAt(seq, salt, base, b)) {
                        return b;
                    }
                }
            }
        }
        for (; i < length; i++) {
            if (seg.get(ValueLayout.JAVA_BYTE, offset + i) != byteAt(seq, salt, base, i)) {
                return i;
            }
        }
        return -1;
    }
}
