package org.jrdma.testkit;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;

/** Seeded message contents and byte-exact checks, so a failing transfer replays from its seed. */
public final class Payload {
    private Payload() {
    }

    /**
     * Fills {@code target} with bytes from {@code new Random(seed)}.
     *
     * @param target the memory to fill, at most 2 GiB
     * @param seed the random seed
     */
    public static void fill(MemorySegment target, long seed) {
        byte[] bytes = new byte[Math.toIntExact(target.byteSize())];
        new Random(seed).nextBytes(bytes);
        MemorySegment.copy(MemorySegment.ofArray(bytes), 0, target, 0, bytes.length);
    }

    /**
     * The bytes of several segments one after another, as a gather list sends them.
     *
     * @param parts the segments, in order
     * @return a heap segment holding them all
     */
    public static MemorySegment concat(MemorySegment... parts) {
        long total = 0;
        for (MemorySegment p : parts) {
            total += p.byteSize();
        }
        MemorySegment all = MemorySegment.ofArray(new byte[Math.toIntExact(total)]);
        long at = 0;
        for (MemorySegment p : parts) {
            MemorySegment.copy(p, 0, all, at, p.byteSize());
            at += p.byteSize();
        }
        return all;
    }

    /**
     * Fails at the first byte where {@code actual} differs from {@code expected}.
     *
     * @param actual the bytes received
     * @param expected the bytes sent
     * @param what names the transfer in the failure
     * @throws AssertionError at the first difference, or when the sizes differ
     */
    public static void assertSameBytes(MemorySegment actual, MemorySegment expected, String what) {
        if (actual.byteSize() != expected.byteSize()) {
            throw new AssertionError(what + ": " + actual.byteSize() + " bytes, expected " + expected.byteSize());
        }
        long at = actual.mismatch(expected);
        if (at >= 0) {
            throw new AssertionError(what + ": first difference at byte " + at + " of " + expected.byteSize()
                    + ": 0x" + hex(actual, at) + ", expected 0x" + hex(expected, at));
        }
    }

    /**
     * Fails unless every byte of {@code segment} is {@code value}: memory nobody may touch.
     *
     * @param segment the memory to check
     * @param value the canary byte
     * @param what names the memory in the failure
     * @throws AssertionError at the first byte that differs
     */
    public static void assertFilledWith(MemorySegment segment, byte value, String what) {
        for (long i = 0; i < segment.byteSize(); i++) {
            byte b = segment.get(ValueLayout.JAVA_BYTE, i);
            if (b != value) {
                throw new AssertionError(what + ": byte " + i + " of " + segment.byteSize() + " was overwritten with 0x"
                        + hex(segment, i) + " (canary 0x" + Integer.toHexString(value & 0xFF) + ")");
            }
        }
    }

    private static String hex(MemorySegment s, long at) {
        return Integer.toHexString(s.get(ValueLayout.JAVA_BYTE, at) & 0xFF);
    }
}
