package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.VerbsException;
import org.junit.jupiter.api.Test;

/** {@code registerMemory(segment, access, arena)}: closing the arena deregisters the region first. */
class ArenaTiedRegistrationTest {
    @Test
    void closingTheArenaDeregistersItsRegions() {
        try (Context ctx = FreshDevices.fresh("tied").open()) {
            ProtectionDomain pd = ctx.allocPd();
            Arena arena = Arena.ofShared();
            MemoryRegion mr = pd.registerMemory(arena.allocate(4096, 64), AccessFlags.LOCAL_WRITE, arena);
            assertThatThrownBy(pd::close).as("a PD with a live MR").isInstanceOf(VerbsException.class)
                    .extracting(e -> ((VerbsException) e).errno()).isEqualTo(Errno.EBUSY);

            arena.close();

            pd.close(); // would be EBUSY had the arena's close left the region registered
            mr.close(); // and closing it again afterwards is harmless
        }
    }

    @Test
    void aRegionClosedFirstLeavesTheArenaFreeToClose() {
        try (Context ctx = FreshDevices.fresh("tied").open(); Arena arena = Arena.ofShared()) {
            ProtectionDomain pd = ctx.allocPd();
            MemoryRegion mr = pd.registerMemory(arena.allocate(4096, 64), AccessFlags.LOCAL_WRITE, arena);
            mr.close();
            pd.close();
        }
    }

    @Test
    void aSegmentOfAnotherArenaIsRefused() {
        try (Context ctx = FreshDevices.fresh("tied").open(); Arena mine = Arena.ofShared(); Arena other = Arena.ofShared()) {
            ProtectionDomain pd = ctx.allocPd();
            MemorySegment segment = mine.allocate(4096, 64);
            assertThatThrownBy(() -> pd.registerMemory(segment, AccessFlags.LOCAL_WRITE, other))
                    .isInstanceOf(VerbsException.class).hasMessageContaining("not one of the arena's")
                    .extracting(e -> ((VerbsException) e).errno()).isEqualTo(Errno.EINVAL);
            pd.close();
        }
    }
}
