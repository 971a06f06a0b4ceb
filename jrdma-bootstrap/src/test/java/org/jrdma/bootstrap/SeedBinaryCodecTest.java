package org.jrdma.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class SeedBinaryCodecTest {
    private static final SeedBinaryCodec CODEC = SeedBinaryCodec.INSTANCE;

    @Test
    void laysOutFieldsBigEndianWithAZeroPad() {
        assertThat(HexFormat.of().formatHex(CODEC.encode(TestInfos.CLIENT)))
                .isEqualTo("0000" + "0000" + "00000012" + "00e3de62" + "00000000000000000000ffff0a4d0003");
        assertThat(CODEC.decode(CODEC.encode(TestInfos.CLIENT))).isEqualTo(TestInfos.CLIENT);
    }

    @Test
    void leavesTheCallersByteOrderAlone() {
        ByteBuffer buf = ByteBuffer.allocate(28).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        CODEC.encode(TestInfos.CLIENT, buf);
        assertThat(buf.order()).isEqualTo(java.nio.ByteOrder.LITTLE_ENDIAN);
        assertThat(buf.position()).isEqualTo(28);
    }

    @ParameterizedTest
    @MethodSource("wrongSizes")
    void refusesEveryWrongSize(int size) {
        assertMalformed(Arrays.copyOf(CODEC.encode(TestInfos.CLIENT), size), "size");
    }

    static IntStream wrongSizes() {
        return IntStream.concat(IntStream.rangeClosed(0, 27), IntStream.of(29, 52));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 0xFFFFFF, 0x1000000, 0xFFFFFFFF})
    void refusesSpecialAndOversizedQpns(int qpn) {
        assertMalformed(withInt(4, qpn), "qpn");
    }

    @ParameterizedTest
    @ValueSource(ints = {0x1000000, 0x7FFFFFFF, 0xFFFFFFFF})
    void refusesAPsnOf2To24OrMoreInsteadOfMaskingIt(int psn) {
        assertMalformed(withInt(8, psn), "psn");
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void refusesANonZeroPad(int offset) {
        byte[] message = CODEC.encode(TestInfos.CLIENT);
        message[offset] = 1;
        assertMalformed(message, "pad");
        assertThatThrownBy(() -> CODEC.checkPrefix(message, offset + 1)).isInstanceOf(MalformedMessageException.class);
    }

    @Test
    void refusesAMulticastGid() {
        byte[] message = CODEC.encode(TestInfos.CLIENT);
        message[12] = (byte) 0xFF;
        assertMalformed(message, "gid");
    }

    @Test
    void readsTheLidUnsigned() {
        byte[] message = CODEC.encode(TestInfos.CLIENT);
        message[0] = (byte) 0xFF;
        message[1] = (byte) 0xFF;
        assertThat(CODEC.decode(message).lid()).isEqualTo(0xFFFF);
    }

    private static byte[] withInt(int offset, int value) {
        byte[] message = CODEC.encode(TestInfos.CLIENT);
        ByteBuffer.wrap(message).putInt(offset, value);
        return message;
    }

    static void assertMalformed(byte[] message, String field) {
        assertThatThrownBy(() -> CODEC.decode(message))
                .isInstanceOf(MalformedMessageException.class)
                .satisfies(e -> assertThat(((MalformedMessageException) e).field()).isEqualTo(field));
    }
}
