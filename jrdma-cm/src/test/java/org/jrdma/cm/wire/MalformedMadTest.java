package org.jrdma.cm.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What decode refuses, typed and naming the field; and the encoder's own refusals. */
class MalformedMadTest {
    private static final byte[] RTU = RpingMads.frame(3);

    @ParameterizedTest
    @ValueSource(ints = {0, 24, 255, 257, 296})
    void anythingButExactly256BytesIsNotAMad(int len) {
        byte[] b = new byte[300];
        System.arraycopy(RTU, 0, b, 0, Mad.SIZE);
        CmFormatException e = refused(b, 0, len);
        assertThat(e.field()).isEqualTo("length");
        assertThat(e).hasMessageContaining(String.valueOf(len)).hasMessageContaining("256");
        assertThat(e.rejectReason()).isEmpty();
    }

    @Test
    void aMadInsideALargerBufferDecodesFromItsOffset() throws CmFormatException {
        byte[] b = new byte[40 + Mad.SIZE]; // a GSI receive: the 40-byte GRH area, then the MAD
        System.arraycopy(RTU, 0, b, 40, Mad.SIZE);
        assertThat(CmCodec.decode(b, 40, Mad.SIZE)).isEqualTo(CmCodec.decode(RTU, 0, Mad.SIZE));
        assertThatThrownBy(() -> CmCodec.decode(b, 41, Mad.SIZE)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void baseVersion() {
        assertRefused(0, 2, "baseVersion");
    }

    @Test
    void mgmtClass() {
        assertRefused(1, 0x04, "mgmtClass"); // a PerfMgt MAD
    }

    /** IBTA's answer to a REQ of another class version is REJ reason 31. */
    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void classVersion(int version) {
        CmFormatException e = assertRefused(2, version, "classVersion");
        assertThat(e.rejectReason()).contains(RejectReason.INVALID_CLASS_VERSION);
    }

    @ParameterizedTest
    @ValueSource(ints = {0x01, 0x81})
    void methodMustBeSend(int method) {
        assertRefused(3, method, "method"); // GET, GET response
    }

    @ParameterizedTest
    @ValueSource(ints = {0x0001, 0x0019, 0x001A})
    void classPortInfoLapAndAprAreUnsupported(int attribute) {
        CmFormatException e = withAttribute(attribute);
        assertThat(e.field()).isEqualTo("attributeId");
        assertThat(e).hasMessageContaining(CmAttribute.of(attribute).name()).hasMessageContaining("not supported");
    }

    @ParameterizedTest
    @ValueSource(ints = {0x0000, 0x0002, 0x001B, 0xFFFF})
    void unknownAttributes(int attribute) {
        CmFormatException e = withAttribute(attribute);
        assertThat(e.field()).isEqualTo("attributeId");
        assertThat(e).hasMessageContaining(Integer.toHexString(attribute)).hasMessageContaining("not a CM attribute");
    }

    /** Reserved bits are not checked: a peer's future use of them must not break the handshake. */
    @Test
    void reservedBitsAreIgnored() throws CmFormatException {
        byte[] req = RpingMads.frame(1);
        req[18] = (byte) 0xAA; // MAD header reserved
        req[28] = (byte) 0xBB; // REQ CM offset 4
        req[48] = (byte) 0xCC; // REQ CM offset 24
        req[119] |= 0x07; // below the primary Local ACK Timeout
        assertThat(CmCodec.decode(req, 0, Mad.SIZE)).isEqualTo(CmCodec.decode(RpingMads.frame(1), 0, Mad.SIZE));
    }

    /** Any bytes at all either decode or fail typed. */
    @Test
    void mutatedMadsOnlyEverFailTyped() {
        Random r = new Random(1003);
        for (int n = 0; n < 5000; n++) {
            byte[] mad = RpingMads.ALL.get(r.nextInt(RpingMads.ALL.size())).mad().clone();
            for (int i = 1 + r.nextInt(3); i > 0; i--) {
                mad[r.nextInt(r.nextBoolean() ? Mad.HEADER_SIZE : Mad.SIZE)] = (byte) r.nextInt(256);
            }
            try {
                CmMad cm = CmCodec.decode(mad, 0, Mad.SIZE);
                assertThat(cm.message().attribute().id()).isEqualTo(cm.header().attributeId());
            } catch (CmFormatException expected) {
                assertThat(expected.field()).as("seed 1003 case %d", n).isNotBlank();
            }
        }
    }

    @Test
    void privateDataLongerThanTheMessageHoldsIsRefusedWithTheLimit() {
        assertThatThrownBy(() -> new Rep(1, 2, 0, 3, 0, 0, 4, 1, 1, 15, 0, false, 7, false, 5L, new byte[197]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("REP private data is 197 bytes; at most 196");
        assertThatThrownBy(() -> new Rej(0, 2, Rej.REJECTED_REQ, 0, 28, null, new byte[149]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("REJ private data is 149 bytes; at most 148");
        assertThatThrownBy(() -> new Rej(0, 2, Rej.REJECTED_REQ, 0, 28, new byte[73], null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("REJ additional reject info is 73 bytes; at most 72");
        assertThat(new Rep(1, 2, 0, 3, 0, 0, 4, 1, 1, 15, 0, false, 7, false, 5L, new byte[196]).privateData()).hasSize(196);
    }

    @Test
    void aGidIsExactly16Bytes() {
        assertThatThrownBy(() -> new PathInfo(0, 0, new byte[15], new byte[16], 0, 0, 0, 0, 0, false, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("localGid");
        assertThatThrownBy(() -> new PathInfo(0, 0, new byte[16], null, 0, 0, 0, 0, 0, false, 0))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("remoteGid");
    }

    @Test
    void theEncoderRefusesAHeaderOfAnotherAttribute() {
        ByteBuffer out = ByteBuffer.allocate(Mad.SIZE);
        assertThatThrownBy(() -> CmCodec.encode(MadHeader.cm(1, CmAttribute.REP.id()), new Rtu(1, 2, null), out))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("attributeId 0x13").hasMessageContaining("RTU");
        assertThat(out.position()).isZero();
    }

    @Test
    void theEncoderWritesNothingWhenTheBufferIsShort() {
        ByteBuffer out = ByteBuffer.allocate(Mad.SIZE - 1);
        assertThatThrownBy(() -> CmCodec.encode(MadHeader.cm(1, CmAttribute.RTU.id()), new Rtu(1, 2, null), out))
                .isInstanceOf(BufferOverflowException.class);
        assertThat(out.position()).isZero();
    }

    private static CmFormatException assertRefused(int at, int value, String field) {
        byte[] mad = RTU.clone();
        mad[at] = (byte) value;
        CmFormatException e = refused(mad, 0, Mad.SIZE);
        assertThat(e.field()).isEqualTo(field);
        assertThat(e).hasMessageStartingWith(field + ": " + value + ", expected ");
        return e;
    }

    private static CmFormatException withAttribute(int attribute) {
        byte[] mad = RTU.clone();
        mad[16] = (byte) (attribute >>> 8);
        mad[17] = (byte) attribute;
        CmFormatException e = refused(mad, 0, Mad.SIZE);
        assertThat(e.rejectReason()).isEmpty();
        return e;
    }

    private static CmFormatException refused(byte[] b, int off, int len) {
        return catchThrowableOfType(CmFormatException.class, () -> CmCodec.decode(b, off, len));
    }
}
