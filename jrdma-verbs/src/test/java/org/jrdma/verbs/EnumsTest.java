package org.jrdma.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The enums carry libibverbs' numeric values and strings (verbs.h, enum_strs.c). */
class EnumsTest {
    @Test
    void wcStatusValuesAndStringsAreIbverbs() {
        assertThat(WcStatus.values()).hasSize(24);
        for (WcStatus s : WcStatus.values()) {
            assertThat(s.value()).isEqualTo(s.ordinal());
            assertThat(WcStatus.fromValue(s.value())).isSameAs(s);
        }
        assertThat(WcStatus.SUCCESS.str()).isEqualTo("success");
        assertThat(WcStatus.WR_FLUSH_ERR.str()).isEqualTo("Work Request Flushed Error");
        assertThat(WcStatus.RETRY_EXC_ERR.value()).isEqualTo(12);
        assertThat(WcStatus.RETRY_EXC_ERR.str()).isEqualTo("transport retry counter exceeded");
        assertThat(WcStatus.RNR_RETRY_EXC_ERR.value()).isEqualTo(13);
        assertThat(WcStatus.REM_ACCESS_ERR.str()).isEqualTo("remote access error");
        assertThat(WcStatus.GENERAL_ERR.ibvName()).isEqualTo("IBV_WC_GENERAL_ERR");
        assertThatThrownBy(() -> WcStatus.fromValue(24)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void opcodesStatesAndMasksHaveIbverbsValues() {
        assertThat(WcOpcode.RECV.value()).isEqualTo(128);
        assertThat(WcOpcode.RECV_RDMA_WITH_IMM.value()).isEqualTo(129);
        assertThat(WcOpcode.RECV.isRecv()).isTrue();
        assertThat(WcOpcode.SEND.isRecv()).isFalse();
        assertThat(WrOpcode.SEND_WITH_IMM.value()).isEqualTo(3);
        assertThat(WrOpcode.ATOMIC_WRITE.value()).isEqualTo(15);
        assertThat(WrOpcode.SEND_WITH_IMM.completionOpcode()).isEqualTo(WcOpcode.SEND);
        assertThat(WrOpcode.RDMA_WRITE_WITH_IMM.completionOpcode()).isEqualTo(WcOpcode.RDMA_WRITE);
        assertThat(QpState.ERR.value()).isEqualTo(6);
        assertThat(QpType.UD.value()).isEqualTo(4);
        assertThat(QpType.GSI.value()).as("IB_QPT_GSI").isEqualTo(1);
        assertThat(QpType.GSI.isDatagram()).isTrue();
        assertThat(QpType.UC.isDatagram()).isFalse();
        assertThat(QpAttrMask.DEST_QPN.bit()).isEqualTo(1 << 20);
        assertThat(QpAttrMask.MIN_RNR_TIMER.bit()).isEqualTo(1 << 15);
        assertThat(QpAttrMask.RATE_LIMIT.bit()).isEqualTo(1 << 25);
        assertThat(QpAttrMask.names(QpAttrMask.of(QpAttrMask.AV, QpAttrMask.DEST_QPN) | (1 << 30)))
                .isEqualTo("AV, DEST_QPN, 0x40000000");
        assertThat(AccessFlags.toString(AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ)).isEqualTo("LOCAL_WRITE|REMOTE_READ");
        assertThat(SendFlags.INLINE).isEqualTo(8);
        assertThat(WcFlags.WITH_INV).isEqualTo(8);
    }

    @Test
    void mtuMapsBytesAndEnumValuesAndRefusesOthers() {
        assertThat(Mtu.fromBytes(1024)).isEqualTo(Mtu.MTU_1024);
        assertThat(Mtu.MTU_4096.value()).isEqualTo(5);
        assertThat(Mtu.fromValue(1)).isEqualTo(Mtu.MTU_256);
        assertThat(Mtu.forEthernetMtu(1500)).isEqualTo(Mtu.MTU_1024);
        assertThat(Mtu.forEthernetMtu(9000)).isEqualTo(Mtu.MTU_4096);
        assertThatThrownBy(() -> Mtu.fromBytes(1000)).isInstanceOf(VerbsException.class).hasMessageContaining("1000");
        assertThatThrownBy(() -> Mtu.fromValue(6)).isInstanceOf(VerbsException.class);
    }
}
