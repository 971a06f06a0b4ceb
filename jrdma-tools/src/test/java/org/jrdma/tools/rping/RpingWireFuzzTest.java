package org.jrdma.tools.rping;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import org.jrdma.testkit.fuzz.Fuzz;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;
import org.junit.jupiter.api.Test;

/**
 * Fuzzing what rping reads from its peer (issue 6 item 7): the 16-byte {@code rping_rdma_info}
 * of a receive of any length (anything but 16 bytes is refused with EPROTO, as rping refuses
 * "bogus data"), and the NUL-terminated ping text in a buffer of any content. Segments are
 * exactly as large as the buffers rping allocates, so a read past them throws and fails the case.
 */
class RpingWireFuzzTest {
    @Test
    void aReceiveOfAnyLengthGivesTheInfoOrEproto() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment recv = arena.allocate(RdmaInfo.BYTES);
            Fuzz.run("rping rdma_info", 20_000, 0x5E1, c -> {
                Random r = c.random();
                RdmaInfo sent = new RdmaInfo(r.nextLong(), r.nextInt(), r.nextInt());
                sent.writeTo(recv);
                int byteLen = r.nextBoolean() ? RdmaInfo.BYTES : r.nextInt(4 * RdmaInfo.BYTES);
                try {
                    assertThat(RdmaInfo.received(recv, byteLen)).isEqualTo(sent);
                    assertThat(byteLen).isEqualTo(RdmaInfo.BYTES);
                } catch (VerbsException e) {
                    assertThat(e.errno()).isEqualTo(Errno.EPROTO);
                    assertThat(byteLen).isNotEqualTo(RdmaInfo.BYTES);
                }
            });
        }
    }

    @Test
    void pingTextOfAnyBufferStaysInsideIt() {
        try (Arena arena = Arena.ofConfined()) {
            Fuzz.run("rping ping text", 5_000, 0x5E2, c -> {
                Random r = c.random();
                int size = 1 + r.nextInt(r.nextBoolean() ? 64 : 4096);
                MemorySegment buf = arena.allocate(size);
                if (r.nextBoolean()) {
                    PingText.fill(buf, size, r.nextLong() & Long.MAX_VALUE, PingText.FIRST + r.nextInt(PingText.LAST - PingText.FIRST + 1));
                }
                for (int flips = r.nextInt(4); flips > 0; flips--) {
                    buf.set(ValueLayout.JAVA_BYTE, r.nextInt(size), (byte) r.nextInt(256));
                }
                if (r.nextInt(4) == 0) {
                    for (int i = 0; i < size; i++) {
                        buf.set(ValueLayout.JAVA_BYTE, i, (byte) (1 + r.nextInt(255))); // no NUL at all
                    }
                }
                int limit = r.nextInt(size + 1);
                String text = PingText.text(buf, limit);
                assertThat(text.length()).isLessThanOrEqualTo(limit);
                assertThat(text).doesNotContain("\0");
            });
        }
    }
}
