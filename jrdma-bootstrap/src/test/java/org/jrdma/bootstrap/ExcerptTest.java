package org.jrdma.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ExcerptTest {
    @Test
    void escapesNonPrintableBytes() {
        assertThat(Excerpt.of("done\0\r\n".getBytes(StandardCharsets.US_ASCII))).isEqualTo("\"done\\x00\\x0d\\x0a\"");
        assertThat(Excerpt.ofByte((byte) 0xFF)).isEqualTo("'\\xff'");
    }

    @Test
    void capsAt64BytesAndSaysHowManyMoreThereWere() {
        String s = Excerpt.of(new byte[1000]);
        assertThat(s).startsWith("\"" + "\\x00".repeat(64) + "\"").endsWith("…(+936 bytes)");
        assertThat(Excerpt.of("x".repeat(100))).endsWith("…(+36 chars)");
    }
}
