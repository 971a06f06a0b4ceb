package org.jrdma.cm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.List;
import org.jrdma.soft.SoftDevice;
import org.junit.jupiter.api.Test;

/**
 * With an IPv6 soft device (GID ::1) in the list, the CM's device choice for an IPv4
 * destination never lands on it: ::1 is a loopback address too, but of the other family; and
 * a source or bound device of the other family is an error, not a silent pick.
 */
class DeviceChoiceFamilyTest {
    @Test
    void anIpv4DestinationNeverGetsTheIpv6Device() throws Exception {
        SoftDevice v6 = TestDevices.ipv6Loopback();
        SoftDevice v4 = TestDevices.fresh("cm_v4");
        assertThat(DeviceChoice.choose(List.of(v6, v4), null, null, InetAddress.getByName("127.0.0.1"))).isSameAs(v4);
        assertThat(DeviceChoice.choose(List.of(v4, v6), null, null, InetAddress.getByName("::1"))).isSameAs(v6);
    }

    /** rdma_resolve_addr's EINVAL for a source and a destination of different families. */
    @Test
    void aSourceOrBoundDeviceOfTheOtherFamilyIsInvalid() throws Exception {
        SoftDevice v6 = TestDevices.ipv6Loopback();
        SoftDevice v4 = TestDevices.fresh("cm_v4f");
        InetAddress ipv4 = InetAddress.getByName("127.0.0.1");
        assertThatThrownBy(() -> DeviceChoice.choose(List.of(v6, v4), InetAddress.getByName("::1"), null, ipv4))
                .isInstanceOfSatisfying(CmException.class, e -> assertThat(e.error()).isEqualTo(CmError.INVALID_ARGUMENT))
                .hasMessageContaining("different address families");
        assertThatThrownBy(() -> DeviceChoice.choose(List.of(v6, v4), null, v4, InetAddress.getByName("::1")))
                .isInstanceOfSatisfying(CmException.class, e -> assertThat(e.error()).isEqualTo(CmError.INVALID_ARGUMENT));
    }
}
