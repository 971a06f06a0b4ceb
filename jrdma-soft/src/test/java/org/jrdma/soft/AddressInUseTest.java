package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.PortState;
import org.jrdma.verbs.VerbsException;
import org.junit.jupiter.api.Test;

/**
 * A device whose address:4791 another program holds says who holds it and what to do. (The
 * wildcard holder — rdma_rxe's 0.0.0.0:4791, where no other address helps — is diagnosed by
 * {@link org.jrdma.soft.net.PortHolder}; its tests use ephemeral ports, since a wildcard on
 * 4791 would break every soft device on the host.)
 */
class AddressInUseTest {
    @Test
    void theProgramHoldingTheDevicesAddressIsNamedWithTheWayOut() throws Exception {
        SoftDevice dev = FreshDevices.fresh("inuse");
        try (DatagramSocket holder = new DatagramSocket(new InetSocketAddress(dev.spec().address(), 4791))) {
            assertThatThrownBy(dev::open).isInstanceOfSatisfying(VerbsException.class,
                    e -> assertThat(e.errno()).isEqualTo(Errno.EADDRINUSE))
                    .hasMessageContaining("UDP " + dev.spec().address().getHostAddress() + ":4791 is taken")
                    .hasMessageContaining("by process " + ProcessHandle.current().pid() + " (")
                    .hasMessageContaining("choose another address with JRDMA_SOFT_DEVICES=name=127.0.0.N")
                    .hasMessageNotContaining("rxe");
        }
        dev.open().close(); // free again
    }

    /** An address that is not this host's is not "taken": EADDRNOTAVAIL, naming the address and where local ones are listed. */
    @Test
    void anAddressThatIsNotLocalIsNamedAsSuch() throws Exception {
        java.net.InetAddress testNet = java.net.InetAddress.getByName("192.0.2.77"); // TEST-NET-1: never a host's
        SoftDevice dev = new SoftDevice(new SoftDeviceSpec("elsewhere", testNet, 1500, false), SoftOptions.defaults());
        assertThatThrownBy(dev::open).isInstanceOfSatisfying(VerbsException.class,
                e -> assertThat(e.errno()).isEqualTo(Errno.EADDRNOTAVAIL))
                .hasMessageContaining("192.0.2.77 is not an address of this host").hasMessageContaining("ip addr")
                .hasMessageNotContaining("taken");
        org.junit.jupiter.api.Assumptions.assumeTrue(ipv6(), "the rest needs IPv6 on this host");
        java.net.InetAddress documentation = java.net.InetAddress.getByName("2001:db8::77"); // RFC 3849: never a host's
        SoftDevice v6 = new SoftDevice(new SoftDeviceSpec("elsewhere6", documentation, 1500, false), SoftOptions.defaults());
        assertThatThrownBy(v6::open).isInstanceOf(VerbsException.class).hasMessageContaining("2001:db8::77 is not an address");
    }

    private static boolean ipv6() {
        try {
            return !java.nio.file.Files.readString(java.nio.file.Path.of("/proc/net/if_inet6")).isBlank();
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /** devinfo's open: a device whose address another program holds still answers queries, and creates nothing. */
    @Test
    void aDeviceInUseElsewhereOpensForQueriesOnly() throws Exception {
        SoftDevice dev = FreshDevices.fresh("inuse_query");
        try (DatagramSocket holder = new DatagramSocket(new InetSocketAddress(dev.spec().address(), 4791));
                Context ctx = dev.openForQuery()) {
            assertThat(ctx.queryPort(1).state()).isEqualTo(PortState.ACTIVE);
            assertThat(ctx.queryGid(1, 0)).isEqualTo(Gid.of(dev.spec().address()));
            assertThat(ctx.queryDevice().nodeGuid()).isEqualTo(dev.guid());
            assertThatThrownBy(ctx::allocPd).isInstanceOfSatisfying(VerbsException.class,
                    e -> assertThat(e.errno()).isEqualTo(Errno.EBUSY))
                    .hasMessageContaining("is open in another process")
                    .hasMessageContaining("process " + ProcessHandle.current().pid());
        }
        try (Context ctx = dev.openForQuery()) {
            assertThat(ctx).as("free again: a real open").isInstanceOf(SoftContext.class);
        }
    }
}
