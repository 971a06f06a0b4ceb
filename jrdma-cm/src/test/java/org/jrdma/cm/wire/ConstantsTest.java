package org.jrdma.cm.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The numbers of §7.5, §7.8 and §7.10. */
class ConstantsTest {
    @Test
    void madSizes() {
        assertThat(Mad.HEADER_SIZE + Mad.DATA_SIZE).isEqualTo(Mad.SIZE).isEqualTo(256);
        assertThat(Mad.GSI_QKEY).isEqualTo(0x80010000);
    }

    @Test
    void attributeIds() {
        assertThat(Arrays.stream(CmAttribute.values()).mapToInt(CmAttribute::id))
                .containsExactly(0x01, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1A);
        assertThat(CmAttribute.of(0x13)).isEqualTo(CmAttribute.REP);
        assertThat(CmAttribute.of(0x1B)).isNull();
    }

    @Test
    void rejectReasonsAre1To33And35() {
        assertThat(Arrays.stream(RejectReason.values()).mapToInt(RejectReason::code))
                .containsExactlyElementsOf(IntStream.concat(IntStream.rangeClosed(1, 33), IntStream.of(35)).boxed().toList());
        assertThat(RejectReason.of(28)).isEqualTo(RejectReason.CONSUMER_DEFINED);
        assertThat(RejectReason.of(31)).isEqualTo(RejectReason.INVALID_CLASS_VERSION);
        assertThat(RejectReason.of(34)).isNull();
        assertThat(RejectReason.name(8)).isEqualTo("INVALID_SERVICE_ID");
        assertThat(RejectReason.name(34)).isEqualTo("UNKNOWN(34)");
    }

    /** Linux's cm_ack_timeout: rxe's ACK delay 15 with lifetime 16 gives 17; the capture's 19 is lifetime 18. */
    @Test
    void ackTimeout() {
        assertThat(CmDefaults.ackTimeout(15, CmDefaults.PACKET_LIFETIME)).isEqualTo(17);
        assertThat(CmDefaults.ackTimeout(15, 18)).isEqualTo(19);
        assertThat(CmDefaults.ackTimeout(15, 13)).isEqualTo(16); // 2^14 is within one of 2^15: one more
        assertThat(CmDefaults.ackTimeout(20, 10)).isEqualTo(20);
        assertThat(CmDefaults.ackTimeout(20, 18)).isEqualTo(21);
        assertThat(CmDefaults.ackTimeout(0, 31)).isEqualTo(31);
    }
}
