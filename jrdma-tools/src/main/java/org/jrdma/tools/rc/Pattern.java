package org.jrdma.tools.rc;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The body bytes of message {@code iteration} from side {@code salt} ({@link PingpongMessage}
 * lays the page-start zeros and the marker over them): every message differs from the one
 * before, so a stale, duplicated or misplaced delivery fails verification.
 */
final class Pattern {
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private Pattern() {
    }

    private static long word(long iteration, int salt, long index) {
        long x = (iteration << 20) ^ ((long) salt << 52) ^ index;
        x *= 0x9E3779B97F4A7C15L;
        return x ^ (x >>> 29);
    }

    static void fill(MemorySegment seg, long offset, int size, long iteration, int salt) {
        long i = 0;
        for (; i + 8 <= size; i += 8) {
            seg.set(LONG, offset + i, word(iteration, salt, i));
        }
        for (; i < size; i++) {
            seg.set(ValueLayout.JAVA_BYTE, offset + i, (byte) word(iteration, salt, i));
        }
    }
}
