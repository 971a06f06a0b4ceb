package org.jrdma.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;
import org.junit.jupiter.api.Test;

/** The run's buffer, allocated before any network activity: a size the host cannot give is ENOMEM in words, not an OutOfMemoryError's stack trace. */
class PerfBufferTest {
    @Test
    void aBufferTheHostCannotGiveIsEnomemNamingItsSize() {
        // 2^20 QPs × 3 regions of 8 MiB: 24 TiB, which no malloc grants (the flags allow 64 QPs: 1.5 GiB)
        assertThatThrownBy(() -> PerfBuffer.allocate(1 << 23, false, 1 << 20)).isInstanceOf(VerbsException.class)
                .satisfies(e -> assertThat(((VerbsException) e).errno()).isEqualTo(Errno.ENOMEM))
                .hasMessageStartingWith("cannot allocate the 25165824.0 MiB buffer (--qp 1048576 × 3 regions of 8.0 MiB, for"
                        + " messages up to 8388608 bytes): ")
                .hasMessageContaining("give fewer QPs or a smaller --size");
    }

    @Test
    void theBufferHoldsThreeRegionsPerQp() {
        try (PerfBuffer b = PerfBuffer.allocate(4096, true, 2)) {
            assertThat(b.segment.byteSize()).isEqualTo(b.layout.totalBytes()).isEqualTo(2 * 3 * (1 << 20));
        }
    }
}
