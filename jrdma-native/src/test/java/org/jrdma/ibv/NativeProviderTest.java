package org.jrdma.ibv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ServiceLoader;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.spi.Provider;
import org.junit.jupiter.api.Test;

/** What holds on any machine, with or without an RDMA device: availability and the memory rule's refusals. */
class NativeProviderTest {
    @Test
    void serviceLoaderFindsTheProviderByName() {
        // the test runs inside module org.jrdma.ibv, which provides the service but (in main) has
        // no reason to use it: a module may add its own uses at run time
        NativeProviderTest.class.getModule().addUses(Provider.class);
        assertThat(ServiceLoader.load(Provider.class).stream().map(p -> p.get().name())).contains("native");
    }

    @Test
    void unavailableMeansNoDevicesAndACauseThatNamesTheFix() {
        NativeProvider p = new NativeProvider();
        if (p.isAvailable()) {
            assertThat(p.unavailabilityCause()).isNull();
            assertThat(p.devices()).isNotEmpty().allSatisfy(d -> assertThat(d.provider()).isEqualTo("native"));
        } else {
            assertThat(p.devices()).isEmpty();
            assertThat(p.unavailabilityCause()).isNotBlank().doesNotContain("\n")
                    .containsAnyOf("apt-get install libibverbs1", "found no RDMA device", "--enable-native-access");
        }
    }

    @Test
    void withoutADeviceTheCauseSaysSo() {
        boolean anyDevice = new java.io.File("/sys/class/infiniband").list() instanceof String[] l && l.length > 0;
        org.junit.jupiter.api.Assumptions.assumeFalse(anyDevice, "this machine has RDMA devices");
        assertThat(new NativeProvider().unavailabilityCause()).startsWith("libibverbs found no RDMA device");
    }

    @Test
    void nativeAccessOffNamesTheExactFlag() {
        // The surefire JVM has native access on; the message is built from the module's answer.
        assertThat(NativeProvider.nativeAccessCause(NativeProviderTest.class.getModule())).isNull();
        assertThat(NativeProvider.NATIVE_ACCESS_FLAG).isEqualTo("--enable-native-access=ALL-UNNAMED");
    }

    @Test
    void heapSegmentsAreRefused() {
        VerbsException e = assertThrows(VerbsException.class,
                () -> MemoryRule.checkTwoArgument(MemorySegment.ofArray(new byte[64])));
        assertThat(e.errno()).isEqualTo(Errno.EINVAL);
        assertThat(e.getMessage()).contains("heap segment");
    }

    @Test
    void segmentsOfClosableArenasAreRefusedInTheTwoArgumentForm() {
        try (Arena shared = Arena.ofShared(); Arena confined = Arena.ofConfined()) {
            for (MemorySegment s : new MemorySegment[] {shared.allocate(64), confined.allocate(64)}) {
                VerbsException e = assertThrows(VerbsException.class, () -> MemoryRule.checkTwoArgument(s));
                assertThat(e.errno()).isEqualTo(Errno.EINVAL);
                assertThat(e.getMessage()).contains("registerMemory(segment, access, arena)");
            }
        }
    }

    @Test
    void globalAndAutomaticMemoryIsAcceptedInTheTwoArgumentForm() {
        MemoryRule.checkTwoArgument(Arena.ofAuto().allocate(64));
        MemoryRule.checkTwoArgument(Arena.global().allocate(64));
        assertThat(MemoryRule.isClosable(Arena.ofAuto().allocate(8))).isFalse();
    }
}
