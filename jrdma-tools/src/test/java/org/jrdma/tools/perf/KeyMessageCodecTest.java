package org.jrdma.tools.perf;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.Random;
import org.jrdma.bootstrap.MalformedMessageException;
import org.jrdma.verbs.Gid;
import org.junit.jupiter.api.Test;

/** perftest's 108- and 59-byte key messages (ROCEV2-FACTS §6.2): the example, round trips, every malformed field. */
class KeyMessageCodecTest {
    /** §6.2's example of the GID variant. */
    static final String GID_TEXT = "0000:0001:000011:123456:00001234:00007f0000001000:"
            + "00:00:00:00:00:00:00:00:00:00:ff:ff:c0:a8:01:01:00000000:";
    static final String NO_GID_TEXT = "0000:0001:000011:123456:00001234:00007f0000001000:00000000";

    static KeyMessage example() throws Exception {
        return new KeyMessage(0, 1, 0x11, 0x123456, 0x1234, 0x7f0000001000L, Gid.of(InetAddress.getByName("192.168.1.1")), 0);
    }

    static byte[] withNul(String text) {
        byte[] b = Arrays.copyOf(text.getBytes(US_ASCII), text.length() + 1);
        return b;
    }

    @Test
    void theExampleOfSection62() throws Exception {
        byte[] encoded = KeyMessageCodec.encode(example(), true);
        assertThat(encoded).hasSize(KeyMessageCodec.GID_SIZE).isEqualTo(withNul(GID_TEXT));
        assertThat(KeyMessageCodec.decode(encoded, true)).isEqualTo(example());
    }

    @Test
    void theNoGidVariantIs59Bytes() throws Exception {
        byte[] encoded = KeyMessageCodec.encode(example(), false);
        assertThat(encoded).hasSize(KeyMessageCodec.NO_GID_SIZE).isEqualTo(withNul(NO_GID_TEXT));
        KeyMessage back = KeyMessageCodec.decode(encoded, false);
        assertThat(back.gid()).isEqualTo(Gid.ZERO);
        assertThat(back.qpn()).isEqualTo(0x11);
        assertThat(back.vaddr()).isEqualTo(0x7f0000001000L);
    }

    @Test
    void randomMessagesRoundTripInBothVariants() {
        Random random = new Random(0x5EED);
        for (int i = 0; i < 2000; i++) {
            byte[] gid = new byte[16];
            random.nextBytes(gid);
            KeyMessage m = new KeyMessage(random.nextInt(1 << 16), random.nextInt(1 << 16), random.nextInt(1 << 24),
                    random.nextInt(1 << 24), random.nextInt(), random.nextLong(), Gid.of(gid), random.nextInt());
            assertThat(KeyMessageCodec.decode(KeyMessageCodec.encode(m, true), true)).isEqualTo(m);
            KeyMessage noGid = KeyMessageCodec.decode(KeyMessageCodec.encode(m, false), false);
            assertThat(noGid).isEqualTo(new KeyMessage(m.lid(), m.outReads(), m.qpn(), m.psn(), m.rkey(), m.vaddr(), Gid.ZERO, m.srqn()));
        }
    }

    @Test
    void upperCaseHexIsAccepted() throws Exception {
        assertThat(KeyMessageCodec.decode(withNul(GID_TEXT.toUpperCase()), true)).isEqualTo(example());
    }

    @Test
    void aWrongSizeIsRefused() {
        assertField(() -> KeyMessageCodec.decode(new byte[107], true), "size");
        assertField(() -> KeyMessageCodec.decode(new byte[109], true), "size");
        assertField(() -> KeyMessageCodec.decode(new byte[58], false), "size");
        assertField(() -> KeyMessageCodec.decode(withNul(GID_TEXT), false), "size");
    }

    @Test
    void everyFieldOfTheGidVariantIsNamedWhenMalformed() {
        // position → field: one byte inside each field, each separator kind, the terminator.
        expectGid(0, 'g', "lid");
        expectGid(6, 'x', "out_reads");
        expectGid(12, '-', "qpn");
        expectGid(18, ' ', "psn");
        expectGid(26, 'z', "rkey");
        expectGid(40, 'q', "vaddr");
        expectGid(50, 'G', "gid");
        expectGid(96, 'h', "gid");
        expectGid(99, '!', "srqn");
        expectGid(4, ';', "separator");
        expectGid(49, '0', "separator");
        expectGid(106, 0, "separator"); // the trailing colon
        expectGid(107, ':', "terminator");
    }

    @Test
    void everyFieldOfTheNoGidVariantIsNamedWhenMalformed() {
        expectNoGid(1, 'g', "lid");
        expectNoGid(8, 'x', "out_reads");
        expectNoGid(15, 'y', "qpn");
        expectNoGid(22, 'y', "psn");
        expectNoGid(28, 'y', "rkey");
        expectNoGid(35, 'y', "vaddr");
        expectNoGid(55, 'y', "srqn");
        expectNoGid(23, '.', "separator");
        expectNoGid(58, '\n', "terminator");
    }

    @Test
    void aPrefixIsRefusedBeforeTheWholeMessageArrives() {
        byte[] partial = "0000:00x1".getBytes(US_ASCII);
        assertThatThrownBy(() -> KeyMessageCodec.checkPrefix(partial, partial.length, true))
                .isInstanceOf(MalformedMessageException.class)
                .satisfies(e -> assertThat(((MalformedMessageException) e).field()).isEqualTo("out_reads"))
                .hasMessageContaining("offset 7");
        byte[] fine = "0000:0001:0000".getBytes(US_ASCII);
        KeyMessageCodec.checkPrefix(fine, fine.length, true);
    }

    @Test
    void signsAndSpacesThatScanfWouldTakeAreRefused() {
        byte[] msg = withNul(GID_TEXT);
        msg[0] = '-';
        assertField(() -> KeyMessageCodec.decode(msg, true), "lid");
        byte[] spaced = withNul(GID_TEXT);
        spaced[10] = ' ';
        assertField(() -> KeyMessageCodec.decode(spaced, true), "qpn");
    }

    private static void expectGid(int offset, int value, String field) {
        byte[] msg = withNul(GID_TEXT);
        msg[offset] = (byte) value;
        assertField(() -> KeyMessageCodec.decode(msg, true), field);
    }

    private static void expectNoGid(int offset, int value, String field) {
        byte[] msg = withNul(NO_GID_TEXT);
        msg[offset] = (byte) value;
        assertField(() -> KeyMessageCodec.decode(msg, false), field);
    }

    private static void assertField(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String field) {
        assertThatThrownBy(call).isInstanceOf(MalformedMessageException.class)
                .satisfies(e -> assertThat(((MalformedMessageException) e).field()).isEqualTo(field))
                .hasMessageStartingWith("malformed " + field + ":");
    }
}
