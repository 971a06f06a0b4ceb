package org.jrdma.cm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.util.List;
import org.jrdma.soft.SoftDevice;
import org.jrdma.soft.SoftDeviceSpec;
import org.jrdma.soft.SoftOptions;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;
import org.junit.jupiter.api.Test;

/**
 * With an IPv6 soft device (GID ::1) in the list, the CM's device choice for an IPv4
 * destination never lands on it: ::1 is a loopback address too, but of the other family.
 */
class DeviceChoiceFamilyTest {
    @Test
    void anIpv4DestinationNeverGetsTheIpv6Device() throws Exception {
        SoftDevice v6 = new SoftDevice(new SoftDeviceSpec("cm_v6", InetAddress.getByName("::1"), 65536, false),
                SoftOptions.defaults());
        try {
            v6.open().close();
        } catch (VerbsException e) {
            assumeTrue(e.errno() != Errno.EADDRINUSE, "[::1]:4791 is taken");
            throw e;
        }
        SoftDevice v4 = TestDevices.fresh("cm_v4");
        assertThat(DeviceChoice.choose(List.of(v6, v4), null, null, InetAddress.getByName("127.0.0.1"))).isSameAs(v4);
    }
}
