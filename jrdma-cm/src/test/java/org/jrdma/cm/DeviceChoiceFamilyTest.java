package org.jrdma.cm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.jrdma.cm.wire.PortSpace;
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

    /**
     * Issue 12 item 10: an IPv6 destination with IPv4 devices only was an ADDR_ERROR with
     * −ENETUNREACH that the blocking wait turned into TIMED_OUT. It is −ENODEV (the kernel's
     * cma_acquire_dev_by_src_ip), at once, with a detail naming the devices and the way out.
     */
    @Test
    void anIpv6DestinationWithIpv4DevicesOnlyIsAnAddrErrorEnodevNamingTheDevices() throws Exception {
        SoftDevice v4 = TestDevices.fresh("cm_v4n");
        String v4Address = CmRegistry.address(v4).getHostAddress();
        try (EventChannel ch = EventChannel.create(CmOptions.defaults().devices(() -> List.of(v4)));
                CmId id = CmId.create(ch, PortSpace.TCP, null)) {
            id.resolveAddr(null, new InetSocketAddress(InetAddress.getByName("::1"), 7174), Duration.ofSeconds(2));
            CmEvent e = ch.poll(); // emitted by resolveAddr itself: no waiting
            assertThat(e).isNotNull();
            assertThat(e.type()).isEqualTo(CmEventType.ADDR_ERROR);
            assertThat(e.status()).isEqualTo(-CmError.NO_DEVICE.errno()).isEqualTo(-19);
            assertThat(e.detail()).isEqualTo("resolve_addr: no IPv6 soft device to reach ::1 (there are " + v4.name() + "=" + v4Address
                    + "); make one with JRDMA_SOFT_DEVICES=NAME=::1 or a local IPv6 address");
            CmException thrown = EventChannel.unexpected(CmEventType.ADDR_RESOLVED, e);
            e.ack();
            assertThat(thrown.error()).isEqualTo(CmError.NO_DEVICE);
            assertThat(thrown.getMessage()).startsWith(e.detail()).contains("ADDR_ERROR (status -19)");
        }
    }

    /** A remote destination with loopback devices only: ENETUNREACH, still with the devices named (not TIMED_OUT). */
    @Test
    void aRemoteDestinationWithLoopbackDevicesOnlyIsNetworkUnreachable() throws Exception {
        SoftDevice v4 = TestDevices.fresh("cm_v4u");
        try (EventChannel ch = EventChannel.create(CmOptions.defaults().devices(() -> List.of(v4)));
                CmId id = CmId.create(ch, PortSpace.TCP, null)) {
            id.resolveAddr(null, new InetSocketAddress(InetAddress.getByName("192.0.2.7"), 7174), Duration.ofSeconds(2));
            CmEvent e = ch.poll();
            assertThat(e.status()).isEqualTo(-CmError.NETWORK_UNREACHABLE.errno());
            assertThat(e.detail()).contains("no soft device can reach 192.0.2.7: all of them are on loopback addresses")
                    .contains(v4.name());
            CmException thrown = EventChannel.unexpected(CmEventType.ADDR_RESOLVED, e);
            e.ack();
            assertThat(thrown.error()).isEqualTo(CmError.NETWORK_UNREACHABLE);
        }
    }

    /** A bind or source address no device has: EADDRNOTAVAIL naming the devices and how to make one (it named neither, and printed ::1 as 0:0:0:0:0:0:0:1). */
    @Test
    void aBindOrSourceAddressNoDeviceHasNamesTheDevices() throws Exception {
        SoftDevice v4 = TestDevices.fresh("cm_v4b");
        String have = "(there are " + v4.name() + "=" + CmRegistry.address(v4).getHostAddress() + ")";
        try (EventChannel ch = EventChannel.create(CmOptions.defaults().devices(() -> List.of(v4)));
                CmId listener = CmId.create(ch, PortSpace.TCP, null); CmId client = CmId.create(ch, PortSpace.TCP, null)) {
            assertThatThrownBy(() -> listener.bindAddr(new InetSocketAddress(InetAddress.getByName("::1"), 7174)))
                    .isInstanceOfSatisfying(CmException.class, e -> assertThat(e.error()).isEqualTo(CmError.ADDRESS_NOT_AVAILABLE))
                    .hasMessageStartingWith("bind_addr: no soft device has address ::1 " + have + "; make one with JRDMA_SOFT_DEVICES=NAME=::1");
            assertThatThrownBy(() -> client.resolveAddr(new InetSocketAddress(InetAddress.getByName("192.0.2.9"), 0),
                    new InetSocketAddress(CmRegistry.address(v4), 7174), Duration.ofSeconds(2)))
                    .isInstanceOfSatisfying(CmException.class, e -> assertThat(e.error()).isEqualTo(CmError.ADDRESS_NOT_AVAILABLE))
                    .hasMessageStartingWith("resolve_addr: no soft device has source address 192.0.2.9 " + have);
        }
    }
}
