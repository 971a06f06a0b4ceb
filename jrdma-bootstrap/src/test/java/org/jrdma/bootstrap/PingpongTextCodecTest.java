package org.jrdma.bootstrap;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class PingpongTextCodecTest {
    private static final PingpongTextCodec CODEC = PingpongTextCodec.INSTANCE;

    /** conformance/rxe/rc_pingpong.oob.txt, frame 4, client → server. */
    static final byte[] RXE_CLIENT = HexFormat.of().parseHex(
            "303030303a3030303031323a6533646536323a303030303030303030303030303030303030303066666666306134643030303300");
    /** Same capture, frame 6, server → client. */
    static final byte[] RXE_SERVER = HexFormat.of().parseHex(
            "303030303a3030303031373a6537363932613a303030303030303030303030303030303030303066666666306134643030303200");
    /** conformance/rxe/host_rc_pingpong.oob.txt, frame 4. */
    static final byte[] HOST_CLIENT = HexFormat.of().parseHex(
            "303030303a3030303132333a3434663866323a303030303030303030303030303030303030303066666666306134643030303100");

    @Test
    void decodesTheRealRcPingpongBytes() {
        ConnInfo client = CODEC.decode(RXE_CLIENT);
        assertThat(client.lid()).isZero();
        assertThat(client.qpn()).isEqualTo(0x12);
        assertThat(client.psn()).isEqualTo(0xe3de62);
        assertThat(client.gid()).isEqualTo(TestInfos.gid("10.77.0.3"));
        assertThat(client.gid()).hasToString("::ffff:10.77.0.3");

        assertThat(CODEC.decode(RXE_SERVER)).isEqualTo(TestInfos.SERVER);
        assertThat(CODEC.decode(HOST_CLIENT)).isEqualTo(new ConnInfo(0, 0x123, 0x44f8f2, TestInfos.gid("10.77.0.1")));
    }

    @Test
    void encodesByteForByteWhatRcPingpongSent() {
        assertThat(CODEC.encode(TestInfos.CLIENT)).isEqualTo(RXE_CLIENT).hasSize(52);
        assertThat(CODEC.encode(TestInfos.SERVER)).isEqualTo(RXE_SERVER);
    }

    @Test
    void acceptsUpperCaseHexLikeSscanfDoes() {
        byte[] upper = new String(RXE_CLIENT, US_ASCII).toUpperCase().getBytes(US_ASCII);
        assertThat(CODEC.decode(upper)).isEqualTo(TestInfos.CLIENT);
    }

    @ParameterizedTest
    @MethodSource("wrongSizes")
    void refusesEveryWrongSize(int size) {
        byte[] message = Arrays.copyOf(RXE_CLIENT, size); // a prefix, or the message plus one byte
        assertMalformed(message, "size");
    }

    static IntStream wrongSizes() {
        return IntStream.concat(IntStream.rangeClosed(0, 51), IntStream.of(53, 104));
    }

    @ParameterizedTest
    @MethodSource("separatorReplacements")
    void refusesEachSeparatorReplaced(int offset, char replacement) {
        byte[] message = RXE_CLIENT.clone();
        message[offset] = (byte) replacement;
        assertMalformed(message, "separator");
    }

    static Stream<Arguments> separatorReplacements() {
        return IntStream.of(4, 11, 18).boxed()
                .flatMap(offset -> Stream.of('-', ' ', '0', ';', '\0').map(c -> Arguments.of(offset, c)));
    }

    /** OOB-08: non-hex digits (signs, floats) in any field are refused naming the field. */
    @ParameterizedTest
    @MethodSource("digitOffsets")
    void refusesANonHexCharacterAtEveryDigitPosition(int offset, String field) {
        for (char bad : new char[] {'g', 'x', ' ', '-', '+', ':', '\0', 'G'}) {
            byte[] message = RXE_CLIENT.clone();
            message[offset] = (byte) bad;
            assertMalformed(message, field);
        }
    }

    static Stream<Arguments> digitOffsets() {
        return IntStream.range(0, 51)
                .filter(i -> i != 4 && i != 11 && i != 18)
                .mapToObj(i -> Arguments.of(i, i < 4 ? "lid" : i < 11 ? "qpn" : i < 18 ? "psn" : "gid"));
    }

    @ParameterizedTest
    @ValueSource(chars = {'x', '0', ' ', '\n'})
    void refusesAMissingNul(char last) {
        byte[] message = RXE_CLIENT.clone();
        message[51] = (byte) last;
        assertMalformed(message, "terminator");
    }

    /** OOB-08: hex strings with trailing garbage are refused. */
    @Test
    void refusesTrailingGarbage() {
        byte[] withGarbage = Arrays.copyOf(RXE_CLIENT, 53);
        withGarbage[52] = 'x';
        assertMalformed(withGarbage, "size");
    }

    @ParameterizedTest
    @ValueSource(strings = {"000000", "000001", "ffffff", "FFFFFF"})
    void refusesSpecialQpns(String qpn) {
        assertMalformed(text("0000:" + qpn + ":e3de62:00000000000000000000ffff0a4d0003"), "qpn");
    }

    @Test
    void refusesAMulticastGid() {
        assertMalformed(text("0000:000012:e3de62:ff020000000000000000000000000001"), "gid");
    }

    @Test
    void acceptsTheAllZeroGidRcPingpongSendsWithoutGidIndex() {
        assertThat(CODEC.decode(text("0000:000012:e3de62:00000000000000000000000000000000")).gid().isZero()).isTrue();
    }

    /** OOB-06: a foreign protocol is refused from its first byte. */
    @Test
    void refusesAForeignProtocolFromItsFirstByte() {
        byte[] http = "GET / HTTP/1.1\r\nHost: x\r\n".getBytes(US_ASCII);
        assertThatThrownBy(() -> CODEC.checkPrefix(http, 1))
                .isInstanceOf(MalformedMessageException.class)
                .satisfies(e -> assertThat(((MalformedMessageException) e).field()).isEqualTo("lid"))
                .hasMessageContaining("'G' at offset 0");
    }

    @Test
    void acceptsEveryPrefixOfAGoodMessage() {
        for (int n = 0; n <= 52; n++) {
            CODEC.checkPrefix(RXE_CLIENT, n);
        }
    }

    /** OOB-16: errors quote at most 64 bytes of peer input, escaped. */
    @Test
    void quotesAtMost64BytesOfPeerInput() {
        byte[] huge = new byte[10_000];
        Arrays.fill(huge, (byte) 'A');
        assertThatThrownBy(() -> CODEC.decode(huge))
                .isInstanceOf(MalformedMessageException.class)
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(200).doesNotContain("A".repeat(65)));
        byte[] control = RXE_CLIENT.clone();
        control[6] = 0x1b; // ESC must not reach a terminal raw
        assertThatThrownBy(() -> CODEC.decode(control)).hasMessageContaining("\\x1b").hasMessageNotContaining("\u001b");
    }

    @Test
    void parsesAndFormatsThe51CharacterCommandLineForm() {
        String text = "0000:000012:e3de62:00000000000000000000ffff0a4d0003";
        assertThat(CODEC.parseText(text)).isEqualTo(TestInfos.CLIENT);
        assertThat(CODEC.formatText(TestInfos.CLIENT)).isEqualTo(text);
    }

    @Test
    void refusesACommandLineFormOfTheWrongLengthOrWithNonAscii() {
        assertThatThrownBy(() -> CODEC.parseText("0000:000012:e3de62:00000000000000000000ffff0a4d0003 "))
                .isInstanceOf(MalformedMessageException.class)
                .satisfies(e -> assertThat(((MalformedMessageException) e).field()).isEqualTo("size"));
        assertThatThrownBy(() -> CODEC.parseText("0000:0000é2:e3de62:00000000000000000000ffff0a4d0003"))
                .isInstanceOf(MalformedMessageException.class)
                .satisfies(e -> assertThat(((MalformedMessageException) e).field()).isEqualTo("qpn"));
    }

    private static byte[] text(String s51) {
        return (s51 + "\0").getBytes(US_ASCII);
    }

    static void assertMalformed(byte[] message, String field) {
        assertThatThrownBy(() -> CODEC.decode(message))
                .isInstanceOf(MalformedMessageException.class)
                .satisfies(e -> assertThat(((MalformedMessageException) e).field()).isEqualTo(field))
                .hasMessageContaining(field + ": ");
    }
}
