package org.jrdma.soft.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.BindException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.StandardProtocolFamily;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Issue 12 item 10: "choose another 127.0.0.N" is the wrong advice when the port is held on the
 * wildcard address, as Linux's RoCE (rdma_rxe) holds 0.0.0.0:4791 — then no address works. The
 * diagnosis reads the socket tables; here it meets real sockets on ephemeral ports (never 4791,
 * whose wildcard would break every soft device on the host) and a sample of the kernel's table.
 */
class PortHolderTest {
    private static final long SELF = ProcessHandle.current().pid();
    /** rdma_rxe's kernel socket, as /proc/net/udp shows it on x86: 0.0.0.0:4791 (0x12B7), an inode no process holds. */
    private static final String RXE_UDP = """
               sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops
             1207: 00000000:12B7 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 31337 2 0000000000000000 0
             2478: 0100007F:12B7 00000000:0000 07 00000000:00000000 00:00000000 00000000  1000        0 40001 2 0000000000000000 0
             3000: 0100007F:0035 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 40002 2 0000000000000000 0
            """;
    private static final String RXE_UDP6 = """
              sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops
             1207: 00000000000000000000000000000000:12B7 00000000000000000000000000000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 31338 2 0000000000000000 0
            """;

    @Test
    void aRealWildcardSocketIsNamedWithItsProcessAndNoOtherAddressIsAdvised() throws Exception {
        // An IPv4 socket on 0.0.0.0, and Java's default, a dual-stack IPv6 socket on [::]
        try (DatagramChannel v4 = DatagramChannel.open(StandardProtocolFamily.INET).bind(new InetSocketAddress("0.0.0.0", 0));
                DatagramSocket dual = new DatagramSocket(new InetSocketAddress("0.0.0.0", 0))) {
            for (int port : new int[] {((InetSocketAddress) v4.getLocalAddress()).getPort(), dual.getLocalPort()}) {
                InetAddress wanted = InetAddress.getByName("127.77.250.1");
                assertBindFails(wanted, port); // the case itself: the wildcard takes the port on every address

                PortHolder h = PortHolder.diagnose(wanted, port);
                assertThat(h.kind()).isEqualTo(PortHolder.Kind.WILDCARD);
                assertThat(h.address().isAnyLocalAddress()).isTrue();
                assertThat(h.owner()).isEqualTo("process " + SELF + " (" + comm() + ")");
                assertThat(h.kernel()).isFalse();
                assertThat(h.explain()).containsAnyOf("UDP 0.0.0.0:" + port, "UDP [::]:" + port)
                        .contains("every local address", "process " + SELF, "stop it").doesNotContain("127.0.0.N");
            }
        }
    }

    @Test
    void aRealSocketOnTheSameAddressIsNamedWithItsProcess() throws Exception {
        InetAddress wanted = InetAddress.getByName("127.77.250.2");
        try (DatagramSocket same = new DatagramSocket(new InetSocketAddress(wanted, 0))) {
            PortHolder h = PortHolder.diagnose(wanted, same.getLocalPort());
            assertThat(h.kind()).isEqualTo(PortHolder.Kind.SAME_ADDRESS);
            assertThat(h.address()).isEqualTo(wanted);
            assertThat(h.owner()).isEqualTo("process " + SELF + " (" + comm() + ")");
        }
    }

    @Test
    void aPortNobodyHoldsIsFree() throws Exception {
        int port;
        try (DatagramSocket probe = new DatagramSocket(new InetSocketAddress("127.77.250.3", 0))) {
            port = probe.getLocalPort();
        }
        PortHolder h = PortHolder.diagnose(InetAddress.getByName("127.77.250.3"), port);
        assertThat(h.kind()).isEqualTo(PortHolder.Kind.FREE);
        assertThat(h.explain()).isNull();
    }

    @Test
    void theKernelsRoceSocketIsToldApartFromAProcess() throws Exception {
        assumeTrue(ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN, "the sample is an x86 table (host byte order)");
        InetAddress wanted = InetAddress.getByName("127.0.0.2");

        PortHolder seenAll = PortHolder.diagnose(wanted, 4791, RXE_UDP, RXE_UDP6, owners(Optional.empty(), true), false);
        assertThat(seenAll.kind()).isEqualTo(PortHolder.Kind.WILDCARD);
        assertThat(seenAll.address().getHostAddress()).isEqualTo("0.0.0.0");
        assertThat(seenAll.kernel()).as("no process holds it, and every process was seen").isTrue();
        assertThat(seenAll.explain()).contains("UDP 0.0.0.0:4791", "the kernel", "rdma_rxe", "rdma link delete",
                "network namespace").doesNotContain("127.0.0.N");

        PortHolder rxeLoaded = PortHolder.diagnose(wanted, 4791, RXE_UDP, "", owners(Optional.empty(), false), true);
        assertThat(rxeLoaded.kernel()).as("rdma_rxe is loaded").isTrue();

        PortHolder unsure = PortHolder.diagnose(wanted, 4791, RXE_UDP, "", owners(Optional.empty(), false), false);
        assertThat(unsure.kernel()).isFalse();
        assertThat(unsure.explain()).contains("a process of another user or by the kernel's RoCE", "ss -ulpn 'sport = :4791'");

        PortHolder process = PortHolder.diagnose(wanted, 4791, RXE_UDP, "", owners(Optional.of("process 77 (socat)"), false), true);
        assertThat(process.kernel()).isFalse();
        assertThat(process.explain()).contains("process 77 (socat)", "stop it");
    }

    @Test
    void theTableIsReadForTheWantedFamilyAndAddress() throws Exception {
        assumeTrue(ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN, "the sample is an x86 table (host byte order)");
        PortHolder.SocketOwners none = owners(Optional.empty(), true);
        PortHolder loopback = PortHolder.diagnose(InetAddress.getByName("127.0.0.1"), 4791, RXE_UDP, "", none, false);
        assertThat(loopback.kind()).as("the wildcard outranks the exact address").isEqualTo(PortHolder.Kind.WILDCARD);
        PortHolder dns = PortHolder.diagnose(InetAddress.getByName("127.0.0.1"), 53, RXE_UDP, "", none, false);
        assertThat(dns.kind()).isEqualTo(PortHolder.Kind.SAME_ADDRESS);
        assertThat(dns.address().getHostAddress()).isEqualTo("127.0.0.1");
        PortHolder v6 = PortHolder.diagnose(InetAddress.getByName("::1"), 4791, RXE_UDP, RXE_UDP6, none, false);
        assertThat(v6.kind()).isEqualTo(PortHolder.Kind.WILDCARD);
        assertThat(v6.explain()).contains("UDP [::]:4791");
        PortHolder dualStack = PortHolder.diagnose(InetAddress.getByName("127.0.0.3"), 4791, "", RXE_UDP6, none, false);
        assertThat(dualStack.kind()).as("only an IPv6 wildcard: it may be dual-stack").isEqualTo(PortHolder.Kind.WILDCARD);
        assertThat(PortHolder.diagnose(InetAddress.getByName("127.0.0.3"), 4791, "garbage\n1: zz:zz\n", "", none, false).kind())
                .isEqualTo(PortHolder.Kind.FREE);
    }

    private static PortHolder.SocketOwners owners(Optional<String> owner, boolean sawAll) {
        return new PortHolder.SocketOwners() {
            @Override
            public Optional<String> owner(long inode) {
                return owner;
            }

            @Override
            public boolean sawEveryProcess() {
                return sawAll;
            }
        };
    }

    private static void assertBindFails(InetAddress address, int port) {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(address, port))) {
            throw new AssertionError("bound " + address + ":" + port + " beside the wildcard socket");
        } catch (BindException expected) {
            // EADDRINUSE
        } catch (SocketException e) {
            throw new AssertionError(e);
        }
    }

    private static String comm() throws Exception {
        return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/self/comm")).strip();
    }
}
