package org.jrdma.soft.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BthTest {
    private final Bth bth = new Bth();

    @Test
    void readsTheRcSendOnlyVectorBth() {
        bth.wrap(Hex.buffer(Vectors.RC_SEND_ONLY), Vectors.UDP_PAYLOAD);

        assertThat(bth.opcode()).isEqualTo(0x04);
        assertThat(bth.se()).isFalse();
        assertThat(bth.migReq()).isFalse();
        assertThat(bth.padCount()).isEqualTo(3);
        assertThat(bth.tver()).isZero();
        assertThat(bth.pkey()).isEqualTo(0xFFFF);
        assertThat(bth.fecn()).isFalse();
        assertThat(bth.becn()).isFalse();
        assertThat(bth.destQp()).isEqualTo(0x12);
        assertThat(bth.ackReq()).isTrue();
        assertThat(bth.psn()).isEqualTo(0x100);
    }

    @Test
    void readsBecnAndMigReqFromTheVectors() {
        assertThat(bth.wrap(Hex.buffer(Vectors.CNP_CONNECTX), Vectors.UDP_PAYLOAD).becn()).isTrue();
        assertThat(bth.destQp()).isEqualTo(0x118);
        assertThat(bth.wrap(Hex.buffer(Vectors.SCAPY_UC_SEND_ONLY), Vectors.UDP_PAYLOAD).migReq()).isTrue();
        assertThat(bth.padCount()).isEqualTo(2);
        assertThat(bth.psn()).isEqualTo(13571856);
        assertThat(bth.destQp()).isEqualTo(211);
    }

    @Test
    void writesTheRcSendOnlyVectorBth() {
        ByteBuffer buffer = ByteBuffer.allocate(16);
        bth.wrap(buffer, 2).clear().opcode(0x04).padCount(3).pkey(Bth.DEFAULT_PKEY).destQp(0x12).ackReq(true).psn(0x100);

        assertThat(Hex.of(buffer, 2, Bth.LENGTH)).isEqualTo("0430ffff0000001280000100");
        assertThat(buffer.get(0)).isZero();
        assertThat(buffer.get(14)).isZero();
    }

    @Test
    void everyFieldRoundTripsAndMatchesTheWordLayout() {
        Random r = new Random(0xB7B);
        for (int n = 0; n < 5_000; n++) {
            roundTrip(r.nextInt(256), r.nextBoolean(), r.nextBoolean(), r.nextInt(4), r.nextInt(16), r.nextInt(0x10000),
                    r.nextBoolean(), r.nextBoolean(), r.nextInt(0x1000000), r.nextBoolean(), r.nextInt(0x1000000));
        }
        roundTrip(255, true, true, 3, 15, 0xFFFF, true, true, 0xFFFFFF, true, 0xFFFFFF);
        roundTrip(0, false, false, 0, 0, 0, false, false, 0, false, 0);
    }

    private void roundTrip(int opcode, boolean se, boolean migReq, int pad, int tver, int pkey, boolean fecn, boolean becn,
            int qp, boolean ackReq, int psn) {
        ByteBuffer buffer = ByteBuffer.allocate(Bth.LENGTH);
        // Set in an order that would expose a setter clobbering its neighbours.
        bth.wrap(buffer, 0).psn(psn).ackReq(ackReq).destQp(qp).becn(becn).fecn(fecn).pkey(pkey)
                .tver(tver).padCount(pad).migReq(migReq).se(se).opcode(opcode);

        assertThat(bth.opcode()).isEqualTo(opcode);
        assertThat(bth.se()).isEqualTo(se);
        assertThat(bth.migReq()).isEqualTo(migReq);
        assertThat(bth.padCount()).isEqualTo(pad);
        assertThat(bth.tver()).isEqualTo(tver);
        assertThat(bth.pkey()).isEqualTo(pkey);
        assertThat(bth.fecn()).isEqualTo(fecn);
        assertThat(bth.becn()).isEqualTo(becn);
        assertThat(bth.destQp()).isEqualTo(qp);
        assertThat(bth.ackReq()).isEqualTo(ackReq);
        assertThat(bth.psn()).isEqualTo(psn);
        // ROCEV2-FACTS §1.3, as 32-bit words
        assertThat(buffer.getInt(0)).isEqualTo(opcode << 24 | (se ? 1 : 0) << 23 | (migReq ? 1 : 0) << 22
                | pad << 20 | tver << 16 | pkey);
        assertThat(buffer.getInt(4)).isEqualTo((fecn ? 1 : 0) << 31 | (becn ? 1 : 0) << 30 | qp);
        assertThat(buffer.getInt(8)).isEqualTo((ackReq ? 1 : 0) << 31 | psn);
    }

    @Test
    void settersMaskToTheFieldWidth() {
        ByteBuffer buffer = ByteBuffer.allocate(Bth.LENGTH);
        bth.wrap(buffer, 0).destQp(0x7F123456).psn(-1).padCount(7).tver(0x1F);

        assertThat(bth.destQp()).isEqualTo(0x123456);
        assertThat(bth.psn()).isEqualTo(0xFFFFFF);
        assertThat(bth.padCount()).isEqualTo(3);
        assertThat(bth.tver()).isEqualTo(0xF);
        assertThat(buffer.get(4)).isZero();
        assertThat(buffer.get(8)).isZero();
    }

    @Test
    void refusesALittleEndianBuffer() {
        ByteBuffer buffer = ByteBuffer.allocate(Bth.LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        assertThatThrownBy(() -> bth.wrap(buffer, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void describesItself() {
        bth.wrap(Hex.buffer(Vectors.RC_SEND_ONLY), Vectors.UDP_PAYLOAD);
        assertThat(bth.toString()).isEqualTo("RC_SEND_ONLY qp=0x000012 psn=0x000100 ack pad=3");
    }
}
