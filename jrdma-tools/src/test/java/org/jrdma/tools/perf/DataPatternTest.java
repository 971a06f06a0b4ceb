package org.jrdma.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * What every byte-for-byte --check rests on (messages received, WRITEs as they land, READs,
 * target slots): a message verifies against its own number and side only, and any changed byte
 * is found, at its index.
 */
class DataPatternTest {
    private static final long SEED = 0x5EED_0012L;

    @Test
    void aMessageVerifiesAgainstItselfOnly() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment m = arena.allocate(4099);
            DataPattern.fill(m, 0, 4099, 41, DataPattern.CLIENT_SALT, 0);
            assertThat(DataPattern.verify(m, 0, 4099, 41, DataPattern.CLIENT_SALT, 0)).isEqualTo(-1);
            assertThat(DataPattern.verify(m, 0, 4099, 40, DataPattern.CLIENT_SALT, 0)).as("a stale message").isBetween(0L, 7L);
            assertThat(DataPattern.verify(m, 0, 4099, 41, DataPattern.SERVER_SALT, 0)).as("the other direction's").isBetween(0L, 7L);
            assertThat(DataPattern.verify(m, 0, 4099 - 64, 41, DataPattern.CLIENT_SALT, 64)).as("misplaced").isBetween(0L, 7L);
        }
    }

    /** Every byte of a short message, and seeded positions and bit flips in a long one (the seed is in the message). */
    @Test
    void anyChangedByteIsFoundAtItsIndex() {
        SplittableRandom random = new SplittableRandom(SEED);
        try (Arena arena = Arena.ofConfined()) {
            for (int size : new int[] {1, 7, 8, 9, 63, 200, 65536}) {
                MemorySegment m = arena.allocate(size);
                DataPattern.fill(m, 0, size, 7, DataPattern.SERVER_SALT, 0);
                int tries = size <= 200 ? size : 2000;
                for (int t = 0; t < tries; t++) {
                    int at = size <= 200 ? t : random.nextInt(size);
                    byte flip = (byte) (1 << random.nextInt(8));
                    byte was = m.get(ValueLayout.JAVA_BYTE, at);
                    m.set(ValueLayout.JAVA_BYTE, at, (byte) (was ^ flip));
                    assertThat(DataPattern.verify(m, 0, size, 7, DataPattern.SERVER_SALT, 0))
                            .as("size %d, byte %d, flip %02x, seed %x", size, at, flip, SEED).isEqualTo(at);
                    m.set(ValueLayout.JAVA_BYTE, at, was);
                }
            }
        }
    }
}
