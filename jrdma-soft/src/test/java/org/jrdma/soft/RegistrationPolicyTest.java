package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.VerbsException;
import org.junit.jupiter.api.Test;

/**
 * What may be registered at all (RELIABILITY-SECURITY SEC-47, SEC-48, SEC-06): only buffers the
 * engine can safely reach from its own threads, never "the whole address space", and no
 * on-demand paging that would expose memory never registered.
 */
class RegistrationPolicyTest {
    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE;

    private static void assertRefused(Errno errno, Runnable reg, String why) {
        assertThatThrownBy(reg::run).as(why).isInstanceOfSatisfying(VerbsException.class,
                e -> assertThat(e.errno()).isEqualTo(errno));
    }

    /**
     * SEC-48 (ReDMArk V10): ibverbs' implicit ODP (IBV_ACCESS_ON_DEMAND with addr 0, length
     * SIZE_MAX) exposes the whole address space under one rkey. The soft provider has no ODP —
     * ON_DEMAND is refused with EOPNOTSUPP — and a segment from address 0 (MemorySegment.NULL
     * reinterpreted to any length, itself a restricted method the JVM warns about) is refused
     * with EINVAL. There is no other registration call.
     */
    @Test
    void sec48ThereIsNoRegisterEverything() {
        try (Context ctx = FreshDevices.fresh("odp").open(); Arena arena = Arena.ofShared()) {
            ProtectionDomain pd = ctx.allocPd();
            MemorySegment buf = arena.allocate(4096, 64);
            assertRefused(Errno.EOPNOTSUPP, () -> pd.registerMemory(buf, ACCESS | AccessFlags.ON_DEMAND), "ON_DEMAND");
            MemorySegment everything = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);
            assertRefused(Errno.EINVAL, () -> pd.registerMemory(everything, ACCESS), "the address space from 0");
            assertRefused(Errno.EINVAL, () -> pd.registerMemory(MemorySegment.NULL, ACCESS), "the NULL segment");
            assertThat(pd.registerMemory(buf, ACCESS).length()).as("an ordinary buffer still registers").isEqualTo(4096);
        }
    }

    /**
     * SEC-47: the engine touches registered memory from its own thread, so a segment confined
     * to the registering thread is refused up front (it would throw WrongThreadException in the
     * middle of a packet); shared, automatic and global segments register.
     */
    @Test
    void sec47ConfinedSegmentsAreRefusedSharedOnesRegister() {
        try (Context ctx = FreshDevices.fresh("confined").open(); Arena shared = Arena.ofShared();
                Arena confined = Arena.ofConfined()) {
            ProtectionDomain pd = ctx.allocPd();
            assertRefused(Errno.EINVAL, () -> pd.registerMemory(confined.allocate(4096), ACCESS), "a confined segment");
            assertThat(pd.registerMemory(shared.allocate(4096), ACCESS).length()).isEqualTo(4096);
            assertThat(pd.registerMemory(Arena.ofAuto().allocate(4096), ACCESS).length()).isEqualTo(4096);
            assertThat(pd.registerMemory(Arena.global().allocate(64), ACCESS).length()).isEqualTo(64);
        }
    }
}
