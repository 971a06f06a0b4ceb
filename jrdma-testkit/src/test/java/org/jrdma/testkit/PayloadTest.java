package org.jrdma.testkit;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

class PayloadTest {
    @Test
    void theSameSeedGivesTheSameBytes() {
        MemorySegment x = MemorySegment.ofArray(new byte[300]);
        MemorySegment y = MemorySegment.ofArray(new byte[300]);
        Payload.fill(x, 42);
        Payload.fill(y, 42);
        assertThatCode(() -> Payload.assertSameBytes(x, y, "copy")).doesNotThrowAnyException();
    }

    @Test
    void aDifferenceIsReportedAtItsOffset() {
        MemorySegment x = MemorySegment.ofArray(new byte[300]);
        MemorySegment y = MemorySegment.ofArray(new byte[300]);
        Payload.fill(x, 42);
        Payload.fill(y, 42);
        y.set(ValueLayout.JAVA_BYTE, 257, (byte) (x.get(ValueLayout.JAVA_BYTE, 257) ^ 1));
        assertThatThrownBy(() -> Payload.assertSameBytes(x, y, "copy")).hasMessageContaining("byte 257 of 300");
    }

    @Test
    void concatJoinsPiecesInOrder() {
        MemorySegment all = MemorySegment.ofArray(new byte[] {1, 2, 3, 4, 5});
        MemorySegment joined = Payload.concat(all.asSlice(0, 2), all.asSlice(2, 3));
        assertThatCode(() -> Payload.assertSameBytes(joined, all, "joined")).doesNotThrowAnyException();
    }

    @Test
    void anOverwrittenCanaryIsReported() {
        MemorySegment s = MemorySegment.ofArray(new byte[64]);
        s.fill((byte) 0xA5);
        assertThatCode(() -> Payload.assertFilledWith(s, (byte) 0xA5, "canary")).doesNotThrowAnyException();
        s.set(ValueLayout.JAVA_BYTE, 10, (byte) 0);
        assertThatThrownBy(() -> Payload.assertFilledWith(s, (byte) 0xA5, "canary")).hasMessageContaining("byte 10");
    }
}
