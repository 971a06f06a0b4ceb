package org.jrdma.bootstrap;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.jrdma.verbs.Gid;
import org.junit.jupiter.api.Test;

/**
 * perftest's 108- and 59-byte key messages (ROCEV2-FACTS §6.2): the example, round trips, every
 * malformed field; and the codec as a {@link ConnInfoCodec}, carrying a {@link RemoteBuffer}.
 */
class PerftestKeyCodecTest {
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
        byte[] encoded = PerftestKeyCodec.GID.encodeKey(example());
        assertThat(encoded).hasSize(PerftestKeyCodec.GID_SIZE).isEqualTo(withNul(GID_TEXT));
        assertThat(PerftestKeyCodec.GID.decodeKey(encoded)).isEqualTo(example());
    }

    @Test
    void theNoGidVariantIs59Bytes() throws Exception {
        byte[] encoded = PerftestKeyCodec.NO_GID.encodeKey(example());
        assertThat(encoded).hasSize(PerftestKeyCodec.NO_GID_SIZE).isEqualTo(withNul(NO_GID_TEXT));
        KeyMessage back = PerftestKeyCodec.NO_GID.decodeKey(encoded);
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
            assertThat(PerftestKeyCodec.GID.decodeKey(PerftestKeyCodec.GID.encodeKey(m))).isEqualTo(m);
            KeyMessage noGid = PerftestKeyCodec.NO_GID.decodeKey(PerftestKeyCodec.NO_GID.encodeKey(m));
            assertThat(noGid).isEqualTo(new KeyMessage(m.lid(), m.outReads(), m.qpn(), m.psn(), m.rkey(), m.vaddr(), Gid.ZERO, m.srqn()));
        }
    }

    @Test
    void upperCaseHexIsAccepted() throws Exception {
        assertThat(PerftestKeyCodec.GID.decodeKey(withNul(GID_TEXT.toUpperCase()))).isEqualTo(example());
    }

    @Test
    void aWrongSizeIsRefused() {
        assertField(() -> PerftestKeyCodec.GID.decodeKey(new byte[107]), "size");
        assertField(() -> PerftestKeyCodec.GID.decodeKey(new byte[109]), "size");
        assertField(() -> PerftestKeyCodec.NO_GID.decodeKey(new byte[58]), "size");
        assertField(() -> PerftestKeyCodec.NO_GID.decodeKey(withNul(GID_TEXT)), "size");
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
        assertThatThrownBy(() -> PerftestKeyCodec.GID.checkPrefix(partial, partial.length))
                .isInstanceOf(MalformedMessageException.class)
                .satisfies(e -> assertThat(((MalformedMessageException) e).field()).isEqualTo("out_reads"))
                .hasMessageContaining("offset 7");
        byte[] fine = "0000:0001:0000".getBytes(US_ASCII);
        PerftestKeyCodec.GID.checkPrefix(fine, fine.length);
    }

    @Test
    void signsAndSpacesThatScanfWouldTakeAreRefused() {
        byte[] msg = withNul(GID_TEXT);
        msg[0] = '-';
        assertField(() -> PerftestKeyCodec.GID.decodeKey(msg), "lid");
        byte[] spaced = withNul(GID_TEXT);
        spaced[10] = ' ';
        assertField(() -> PerftestKeyCodec.GID.decodeKey(spaced), "qpn");
    }

    /** §6.2's example as an Exchange swaps it: the buffer's rkey and address in their fields, out_reads 1, srqn 0. */
    @Test
    void aConnInfoWithABufferIsTheExampleOfSection62() throws Exception {
        ConnInfo info = new ConnInfo(0, 0x11, 0x123456, example().gid(), new RemoteBuffer(0x7f0000001000L, 0x1234));
        assertThat(PerftestKeyCodec.GID.encode(info)).isEqualTo(withNul(GID_TEXT));
        assertThat(PerftestKeyCodec.GID.decode(withNul(GID_TEXT))).isEqualTo(info);
        assertThat(PerftestKeyCodec.GID.decode(withNul(GID_TEXT)).buffer()).isEqualTo(new RemoteBuffer(0x7f0000001000L, 0x1234));
        ByteBuffer dst = ByteBuffer.allocate(PerftestKeyCodec.GID_SIZE + 3).position(3);
        PerftestKeyCodec.GID.encode(info, dst);
        assertThat(dst.position()).isEqualTo(3 + PerftestKeyCodec.GID.size());
    }

    @Test
    void unsignedRkeysAndAddressesRoundTripAsConnInfo() {
        Random random = new Random(0xB0F);
        for (int i = 0; i < 500; i++) {
            byte[] gid = new byte[16];
            random.nextBytes(gid);
            gid[0] = (byte) (gid[0] == (byte) 0xFF ? 0xFE : gid[0]);   // not multicast
            RemoteBuffer b = new RemoteBuffer(random.nextLong() | Long.MIN_VALUE, random.nextInt() | Integer.MIN_VALUE);
            ConnInfo info = new ConnInfo(random.nextInt(1 << 16), 2 + random.nextInt(0xFFFFFD), random.nextInt(1 << 24), Gid.of(gid), b);
            assertThat(PerftestKeyCodec.GID.decode(PerftestKeyCodec.GID.encode(info))).isEqualTo(info);
            assertThat(PerftestKeyCodec.NO_GID.decode(PerftestKeyCodec.NO_GID.encode(info))).isEqualTo(new ConnInfo(info.lid(), info.qpn(), info.psn(), Gid.ZERO, b));
        }
    }

    @Test
    void noBufferTravelsAsZerosAndZerosReadBackAsNone() throws Exception {
        ConnInfo bare = new ConnInfo(0, 0x11, 0x123456, example().gid());
        String text = new String(PerftestKeyCodec.GID.encode(bare), US_ASCII);
        assertThat(text).startsWith("0000:0001:000011:123456:00000000:0000000000000000:");
        assertThat(PerftestKeyCodec.GID.decode(PerftestKeyCodec.GID.encode(bare)).buffer()).isNull();
    }

    @Test
    void outReadsIsTheCodecsAndThePeersIsNotPartOfConnInfo() throws Exception {
        ConnInfo info = new ConnInfo(0, 0x11, 0x123456, example().gid());
        PerftestKeyCodec sixteen = PerftestKeyCodec.GID.withOutReads(16);
        assertThat(sixteen.decodeKey(sixteen.encode(info)).outReads()).isEqualTo(16);
        assertThat(PerftestKeyCodec.GID.decode(sixteen.encode(info))).isEqualTo(info);
        assertThatThrownBy(() -> PerftestKeyCodec.GID.withOutReads(0x10000)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("out_reads");
    }

    @Test
    void whatConnInfoRefusesIsRefusedNamingTheField() {
        byte[] qp1 = withNul(GID_TEXT.replace("0000:0001:000011:", "0000:0001:000001:"));
        assertField(() -> PerftestKeyCodec.GID.decode(qp1), "qpn");
        byte[] multicast = withNul(GID_TEXT.replace(":00:00:00:00:00:00:00:00:00:00:ff:ff:", ":ff:02:00:00:00:00:00:00:00:00:ff:ff:"));
        assertField(() -> PerftestKeyCodec.GID.decode(multicast), "gid");
        assertField(() -> PerftestKeyCodec.GID.decode(new byte[52]), "size");
    }

    @Test
    void theRcPingpongAndSeedCodecsRefuseToDropABuffer() throws Exception {
        ConnInfo info = new ConnInfo(0, 0x11, 0x123456, example().gid(), new RemoteBuffer(0x1000, 7));
        for (ConnInfoCodec c : new ConnInfoCodec[] {PingpongTextCodec.INSTANCE, SeedBinaryCodec.INSTANCE}) {
            assertThatThrownBy(() -> c.encode(info)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(c.name()).hasMessageContaining("TcpOptions.perftest()");
            assertThat(c.decode(c.encode(info.withBuffer(null)))).isEqualTo(info.withBuffer(null));
        }
    }

    @Test
    void theRkeyStaysOutOfToString() {
        ConnInfo info = new ConnInfo(0, 0x11, 0x123456, Gid.ZERO, new RemoteBuffer(0x7f0000001000L, 0xCAFE1234));
        assertThat(info.toString()).contains("VAddr 0x00007f0000001000").doesNotContainIgnoringCase("cafe1234");
    }

    private static void expectGid(int offset, int value, String field) {
        byte[] msg = withNul(GID_TEXT);
        msg[offset] = (byte) value;
        assertField(() -> PerftestKeyCodec.GID.decodeKey(msg), field);
    }

    private static void expectNoGid(int offset, int value, String field) {
        byte[] msg = withNul(NO_GID_TEXT);
        msg[offset] = (byte) value;
        assertField(() -> PerftestKeyCodec.NO_GID.decodeKey(msg), field);
    }

    private static void assertField(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String field) {
        assertThatThrownBy(call).isInstanceOf(MalformedMessageException.class)
                .satisfies(e -> assertThat(((MalformedMessageException) e).field()).isEqualTo(field))
                .hasMessageStartingWith("malformed " + field + ":");
    }
}
