package org.jrdma.ibv.cm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import org.jrdma.cm.CmError;
import org.jrdma.cm.CmException;
import org.jrdma.cm.CmOptions;
import org.jrdma.cm.EventChannel;
import org.jrdma.cm.spi.CmBackend;
import org.jrdma.ibv.NativeProvider;
import org.jrdma.ibv.ffi.RdmaCm;
import org.jrdma.ibv.ffi.SockAddrs;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Device;
import org.junit.jupiter.api.Test;

/**
 * What the librdmacm backend does on any machine, with or without an RDMA device: it is found,
 * says why it cannot run, is chosen for native devices only, and fails typed where the kernel
 * has no rdma_cm. The device-bound behaviour is {@link NativeCmLoopbackTest}'s, in the lab.
 */
class NativeCmHostTest {
    private static final boolean KERNEL_CM = Files.exists(Path.of("/dev/infiniband/rdma_cm"));

    @Test
    void serviceLoaderFindsTheBackendOfTheNativeProvider() {
        NativeCmHostTest.class.getModule().addUses(CmBackend.class); // as NativeProviderTest: provides, not uses
        assertThat(ServiceLoader.load(CmBackend.class).stream().map(ServiceLoader.Provider::get))
                .anySatisfy(b -> assertThat(b.provider()).isEqualTo(NativeProvider.NAME));
    }

    @Test
    void unavailableMeansACauseInOneLineThatNamesTheFix() {
        NativeCmBackend b = new NativeCmBackend();
        if (b.isAvailable()) {
            assertThat(b.unavailabilityCause()).isNull();
        } else {
            assertThat(b.unavailabilityCause()).isNotBlank().doesNotContain("\n")
                    .containsAnyOf("libibverbs", "librdmacm", "--enable-native-access", "RDMA device");
        }
    }

    @Test
    void librdmacmLoadsByNameWhereItIsInstalled() {
        boolean installed = Files.exists(Path.of("/usr/lib/x86_64-linux-gnu/librdmacm.so.1"))
                || Files.exists(Path.of("/usr/lib64/librdmacm.so.1")) || Files.exists(Path.of("/usr/lib/aarch64-linux-gnu/librdmacm.so.1"));
        assumeTrue(installed, "librdmacm.so.1 is not installed here (apt-get install librdmacm1)");
        assertThat(RdmaCm.loadFailure()).isNull();
        assertThat(NativeCmBackend.libraryCause()).isNull();
    }

    /** A channel over a native device goes to librdmacm: without a usable one, it fails naming why, never falls back. */
    @Test
    void aChannelForANativeDeviceIsLibrdmacmsOrFailsTyped() {
        assumeTrue(!new NativeCmBackend().isAvailable(), "the native CM is available here (NativeCmLoopbackTest covers it)");
        CmException e = assertThrows(CmException.class,
                () -> EventChannel.create(CmOptions.defaults().devices(() -> List.of(new FakeNative()))).close());
        assertThat(e.error()).isEqualTo(CmError.NO_DEVICE);
        assertThat(e.getMessage()).contains("rxe9", "native", new NativeCmBackend().unavailabilityCause());
    }

    /** Without the kernel's rdma_cm (no /dev/infiniband/rdma_cm) the channel itself fails, naming the call and errno. */
    @Test
    void withoutTheKernelsRdmaCmTheChannelFailsNamingTheCall() {
        assumeTrue(!KERNEL_CM, "this machine has /dev/infiniband/rdma_cm");
        assumeTrue(RdmaCm.loadFailure() == null, "librdmacm.so.1 is not installed here");
        assumeTrue(NativeProvider.class.getModule().isNativeAccessEnabled(), "native access is not enabled");
        CmException e = assertThrows(CmException.class, () -> NativeCmChannel.open(null));
        assertThat(e.getMessage()).startsWith("rdma_create_event_channel: ").containsAnyOf("ENODEV", "ENOENT");
        assertThat(e.error()).isIn(CmError.NO_DEVICE, CmError.VERBS);
    }

    @Test
    void aToolsGidZeroSourceIsDroppedForAnIpv4DestinationOnly() throws Exception {
        InetSocketAddress dst4 = new InetSocketAddress(InetAddress.getByName("10.0.0.2"), 7174);
        InetSocketAddress linkLocal = new InetSocketAddress(InetAddress.getByName("fe80::5054:ff:fe12:3456"), 0);
        InetSocketAddress v4 = new InetSocketAddress(InetAddress.getByName("10.0.0.1"), 0);
        assertThat(NativeCmId.source(linkLocal, dst4)).isNull();
        assertThat(NativeCmId.source(v4, dst4)).isEqualTo(v4);
        assertThat(NativeCmId.source(null, dst4)).isNull();
        InetSocketAddress dst6 = new InetSocketAddress(InetAddress.getByName("fd00::2"), 7174);
        InetSocketAddress v6 = new InetSocketAddress(InetAddress.getByName("fd00::1"), 0);
        assertThat(NativeCmId.source(v6, dst6)).isEqualTo(v6);
        assertThat(NativeCmId.source(v4, dst6)).isNull();
        assertThat(NativeCmId.source(linkLocal, dst6)).as("no scope id: not a source").isNull();
    }

    @Test
    void socketAddressesRoundTripThroughSockaddrInAndIn6() throws Exception {
        try (Arena a = Arena.ofConfined()) {
            InetSocketAddress v4 = new InetSocketAddress(InetAddress.getByName("192.168.7.9"), 0xABCD);
            assertThat(SockAddrs.read(SockAddrs.write(a, v4).reinterpret(128))).isEqualTo(v4);
            java.net.Inet6Address ll = java.net.Inet6Address.getByAddress(null,
                    InetAddress.getByName("fe80::1").getAddress(), 3);
            InetSocketAddress v6 = new InetSocketAddress(ll, 4791);
            InetSocketAddress back = SockAddrs.read(SockAddrs.write(a, v6).reinterpret(128));
            assertThat(back).isEqualTo(v6);
            assertThat(((java.net.Inet6Address) back.getAddress()).getScopeId()).isEqualTo(3);
            // big-endian port and address bytes, as the kernel reads them
            byte[] raw = SockAddrs.write(a, v4).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
            assertThat(raw).startsWith(2, 0, (byte) 0xAB, (byte) 0xCD, (byte) 192, (byte) 168, 7, 9);
            assertThat(SockAddrs.read(a.allocate(128))).as("family 0: no address").isNull();
        }
    }

    /** A device that says it is the native provider's, to see which CM a channel takes. */
    private static final class FakeNative implements Device {
        @Override
        public String name() {
            return "rxe9";
        }

        @Override
        public String provider() {
            return NativeProvider.NAME;
        }

        @Override
        public long guid() {
            return 0;
        }

        @Override
        public String description() {
            return "a name only";
        }

        @Override
        public Context open() {
            throw new UnsupportedOperationException("never opened");
        }
    }
}
