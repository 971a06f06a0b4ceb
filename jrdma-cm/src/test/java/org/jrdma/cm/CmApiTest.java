package org.jrdma.cm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.jrdma.cm.wire.PortSpace;
import org.junit.jupiter.api.Test;

/** The API's plain parts: rdma_cm's event numbers, ConnParam's defaults and checks, options. */
class CmApiTest {
    @Test
    void eventTypesHaveRdmaCmsNumbers() {
        assertThat(CmEventType.ADDR_RESOLVED.value()).isZero();
        assertThat(CmEventType.CONNECT_REQUEST.value()).isEqualTo(4);
        assertThat(CmEventType.UNREACHABLE.value()).isEqualTo(7);
        assertThat(CmEventType.REJECTED.value()).isEqualTo(8);
        assertThat(CmEventType.ESTABLISHED.value()).isEqualTo(9);
        assertThat(CmEventType.DISCONNECTED.value()).isEqualTo(10);
        assertThat(CmEventType.TIMEWAIT_EXIT.value()).isEqualTo(15);
        assertThat(CmEventType.INTERNAL.value()).isEqualTo(19);
        assertThat(CmEventType.values()).hasSize(20);
    }

    @Test
    void connParamDefaultsAreLibrdmacmsNullParam() {
        ConnParam d = ConnParam.defaults();
        assertThat(d.responderResources()).isEqualTo(ConnParam.DEVICE_MAX).isEqualTo(0xFF);
        assertThat(d.initiatorDepth()).isEqualTo(0xFF);
        assertThat(d.retryCount()).isEqualTo(7);
        assertThat(d.rnrRetryCount()).isEqualTo(7);
        assertThat(d.privateData()).isEmpty();
        byte[] data = {1, 2};
        ConnParam p = ConnParam.withPrivateData(data);
        data[0] = 9;
        assertThat(p.privateData()).containsExactly(1, 2);
        assertThat(p).isEqualTo(ConnParam.withPrivateData(new byte[] {1, 2}));
    }

    @Test
    void connParamRefusesValuesOutsideTheirFields() {
        assertThatThrownBy(() -> ConnParam.defaults().retries(8, 7)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("retryCount = 8");
        assertThatThrownBy(() -> ConnParam.defaults().resources(256, 1)).hasMessageContaining("responderResources");
        assertThatThrownBy(() -> ConnParam.defaults().qpNum(1 << 24)).hasMessageContaining("qpNum");
    }

    @Test
    void optionsDefaultToTheKernelsTimers() {
        CmOptions o = CmOptions.defaults();
        assertThat(o.responseTimeout()).isEqualTo(Duration.ofMillis(4608));
        assertThat(o.maxRetries()).isEqualTo(15);
        assertThatThrownBy(() -> o.maxRetries(16)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> o.responseTimeout(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void onlyTheTcpAndUdpPortSpacesAreSupported() {
        try (EventChannel ch = EventChannel.create()) {
            assertThatThrownBy(() -> CmId.create(ch, PortSpace.IB, null)).isInstanceOf(CmException.class)
                    .extracting(e -> ((CmException) e).error()).isEqualTo(CmError.INVALID_ARGUMENT);
            CmId id = CmId.create(ch, PortSpace.TCP, "ctx");
            assertThat(id.context()).isEqualTo("ctx");
            assertThatThrownBy(() -> id.connect(null)).hasMessageContaining("resolve");
            assertThatThrownBy(() -> id.resolveRoute(Duration.ofSeconds(1))).hasMessageContaining("resolve the address first");
            id.close();
        }
    }

    @Test
    void aClosedChannelFailsAWaitingGetEvent() {
        EventChannel ch = EventChannel.create();
        ch.close();
        assertThatThrownBy(() -> ch.getEvent(Duration.ofSeconds(1))).extracting(e -> ((CmException) e).error())
                .isEqualTo(CmError.CLOSED);
    }
}
