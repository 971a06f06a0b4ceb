package org.jrdma.cm.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** rdma_cm service IDs (§7.7): (port space << 16) | port. */
class ServiceIdTest {
    @Test
    void rpingsServiceIdIsTcpPort7174() {
        long sid = 0x0000000001061c06L; // from the rping REQ
        assertThat(ServiceId.of(PortSpace.TCP, 7174)).isEqualTo(sid);
        assertThat(ServiceId.portSpace(sid)).isEqualTo(PortSpace.TCP);
        assertThat(ServiceId.port(sid)).isEqualTo(7174);
    }

    @Test
    void everyPortSpaceRoundTrips() {
        for (PortSpace ps : PortSpace.values()) {
            for (int port : new int[] {0, 1, 4791, 65535}) {
                long sid = ServiceId.of(ps, port);
                assertThat(ServiceId.portSpace(sid)).isEqualTo(ps);
                assertThat(ServiceId.port(sid)).isEqualTo(port);
            }
        }
        assertThat(ServiceId.of(PortSpace.UDP, 0x1234)).isEqualTo(0x0000000001111234L);
        assertThat(ServiceId.of(PortSpace.IB, 1)).isEqualTo(0x00000000013F0001L);
        assertThat(ServiceId.of(PortSpace.IPOIB, 1)).isEqualTo(0x0000000000020001L);
    }

    @Test
    void otherServiceIdsHaveNoPortSpace() {
        for (long sid : new long[] {0, 0x0000000001000001L, 0x1000000001061c06L, 0x0000000101061c06L, -1}) {
            assertThat(ServiceId.portSpace(sid)).as("0x%x", sid).isNull();
            assertThatThrownBy(() -> ServiceId.port(sid)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(Long.toHexString(sid));
        }
    }

    @Test
    void portsAre16Bits() {
        assertThatThrownBy(() -> ServiceId.of(PortSpace.TCP, 65536)).hasMessageContaining("port");
        assertThatThrownBy(() -> ServiceId.of(PortSpace.TCP, -1)).hasMessageContaining("port");
    }
}
