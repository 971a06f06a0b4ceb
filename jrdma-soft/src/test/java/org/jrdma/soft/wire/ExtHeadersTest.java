package org.jrdma.soft.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** Byte layouts of the extension header flyweights (ROCEV2-FACTS §1.5). */
class ExtHeadersTest {
    private final ByteBuffer buffer = ByteBuffer.allocate(64);

    @Test
    void rethPutsVaRkeyAndDmaLengthBigEndian() {
        Reth reth = new Reth().wrap(buffer, 3).va(0x0102030405060708L).rkey(0x11223344).dmaLength(0xFFFFFFF0);

        assertThat(Hex.of(buffer, 3, Reth.LENGTH)).isEqualTo("0102030405060708" + "11223344" + "fffffff0");
        assertThat(reth.va()).isEqualTo(0x0102030405060708L);
        assertThat(reth.rkey()).isEqualTo(0x11223344);
        assertThat(reth.dmaLengthUnsigned()).isEqualTo(0xFFFFFFF0L);
    }

    @Test
    void aethReadsTheAckVector() {
        Aeth aeth = new Aeth().wrap(Hex.buffer(Vectors.RC_ACK), Vectors.UDP_PAYLOAD + Bth.LENGTH);

        assertThat(aeth.syndrome()).isEqualTo(Aeth.ACK_SYNDROME);
        assertThat(aeth.msn()).isEqualTo(1);
        assertThat(aeth.isAck()).isTrue();
        assertThat(aeth.isNak()).isFalse();
        assertThat(Aeth.creditCode(aeth.syndrome())).isEqualTo(Aeth.CREDIT_INVALID);
    }

    @Test
    void aethSyndromeAndMsnDoNotOverlap() {
        Aeth aeth = new Aeth().wrap(buffer, 0).msn(0xABCDEF).syndrome(Aeth.NAK_REMOTE_ACCESS_ERROR);
        aeth.msn(0x123456);

        assertThat(Hex.of(buffer, 0, Aeth.LENGTH)).isEqualTo("62123456");
        assertThat(aeth.syndrome()).isEqualTo(0x62);
    }

    @Test
    void aethClassifiesEverySyndrome() {
        for (int s = 0; s < 256; s++) {
            int type = s & 0xE0;
            assertThat(Aeth.isAck(s)).isEqualTo(type == 0x00);
            assertThat(Aeth.isRnrNak(s)).isEqualTo(type == 0x20);
            assertThat(Aeth.isNak(s)).isEqualTo(type == 0x60);
        }
        assertThat(Aeth.nakCode(Aeth.NAK_PSN_SEQUENCE_ERROR)).isZero();
        assertThat(Aeth.nakCode(Aeth.NAK_INVALID_RD_REQUEST)).isEqualTo(4);
        assertThat(Aeth.rnrNakSyndrome(12)).isEqualTo(0x2C);
        assertThat(Aeth.rnrTimer(0x2C)).isEqualTo(12);
        assertThat(Aeth.ackSyndrome(Aeth.CREDIT_INVALID)).isEqualTo(0x1F);
        assertThat(Aeth.isNak(0xE0)).as("reserved bit 7 set").isFalse();
    }

    @Test
    void immDtAndIethAreOneWord() {
        new ImmDt().wrap(buffer, 1).immediate(0xCAFEBABE);
        new Ieth().wrap(buffer, 5).rkey(0x01020304);

        assertThat(Hex.of(buffer, 1, 8)).isEqualTo("cafebabe01020304");
        assertThat(new ImmDt().wrap(buffer, 1).immediate()).isEqualTo(0xCAFEBABE);
        assertThat(new Ieth().wrap(buffer, 5).rkey()).isEqualTo(0x01020304);
    }

    @Test
    void dethHoldsQkeyAndA24BitSourceQp() {
        Deth deth = new Deth().wrap(buffer, 0).qkey(Deth.GSI_QKEY).srcQp(0xFF123456);

        assertThat(Hex.of(buffer, 0, Deth.LENGTH)).isEqualTo("8001000000123456");
        assertThat(deth.qkey()).isEqualTo(0x80010000);
        assertThat(deth.srcQp()).isEqualTo(0x123456);
    }

    @Test
    void atomicEthIsPackedWithUnalignedLongs() {
        AtomicEth eth = new AtomicEth().wrap(buffer, 1)
                .va(0x1111111111111118L).rkey(0x22222222).swapAdd(0x3333333333333333L).compare(0x4444444444444444L);

        assertThat(Hex.of(buffer, 1, AtomicEth.LENGTH)).isEqualTo(
                "1111111111111118" + "22222222" + "3333333333333333" + "4444444444444444");
        assertThat(eth.va()).isEqualTo(0x1111111111111118L);
        assertThat(eth.rkey()).isEqualTo(0x22222222);
        assertThat(eth.swapAdd()).isEqualTo(0x3333333333333333L);
        assertThat(eth.compare()).isEqualTo(0x4444444444444444L);
    }

    @Test
    void atomicAckEthHoldsTheOriginalValue() {
        AtomicAckEth eth = new AtomicAckEth().wrap(buffer, 4).originalValue(-2L);

        assertThat(Hex.of(buffer, 4, AtomicAckEth.LENGTH)).isEqualTo("fffffffffffffffe");
        assertThat(eth.originalValue()).isEqualTo(-2L);
    }

    @Test
    void padRoundsPayloadUpToAMultipleOfFour() {
        assertThat(Pad.count(0)).isZero();
        assertThat(Pad.count(1)).isEqualTo(3);
        assertThat(Pad.count(5)).isEqualTo(3);
        assertThat(Pad.count(18)).isEqualTo(2);
        assertThat(Pad.count(1023)).isEqualTo(1);
        assertThat(Pad.count(4096)).isZero();
        for (int n = 0; n < 100; n++) {
            assertThat((n + Pad.count(n)) % 4).isZero();
            assertThat(Pad.count(n)).isBetween(0, Pad.MAX);
        }
    }

    @Test
    void extHeaderLengthsMatchTheFlyweights() {
        assertThat(ExtHeader.RETH.length()).isEqualTo(16);
        assertThat(ExtHeader.AETH.length()).isEqualTo(4);
        assertThat(ExtHeader.IMM_DT.length()).isEqualTo(4);
        assertThat(ExtHeader.IETH.length()).isEqualTo(4);
        assertThat(ExtHeader.DETH.length()).isEqualTo(8);
        assertThat(ExtHeader.ATOMIC_ETH.length()).isEqualTo(28);
        assertThat(ExtHeader.ATOMIC_ACK_ETH.length()).isEqualTo(8);
    }
}
