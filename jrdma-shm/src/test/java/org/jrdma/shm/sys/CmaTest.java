package org.jrdma.shm.sys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;
import org.junit.jupiter.api.Test;

class CmaTest {
    /** Above PID_MAX_LIMIT (4 194 304 on 64-bit): no process can have it. */
    private static final long NO_SUCH_PID = Integer.MAX_VALUE;
    private static final int SIZE = 64 * 1024 + 3;

    private static MemorySegment random(Arena arena, long seed) {
        byte[] bytes = new byte[SIZE];
        new Random(seed).nextBytes(bytes);
        return arena.allocateFrom(ValueLayout.JAVA_BYTE, bytes);
    }

    @Test
    void readsThisProcesssMemory() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment src = random(arena, 1);
            MemorySegment dst = arena.allocate(SIZE);
            assertThat(Cma.read(Proc.pid(), src.address(), dst)).isEqualTo(SIZE);
            assertThat(dst.mismatch(src)).isEqualTo(-1);
        }
    }

    @Test
    void writesThisProcesssMemory() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment src = random(arena, 2);
            MemorySegment dst = arena.allocate(SIZE);
            assertThat(Cma.write(Proc.pid(), src, dst.address())).isEqualTo(SIZE);
            assertThat(dst.mismatch(src)).isEqualTo(-1);
        }
    }

    /** The offset forms move exactly the range asked, and refuse one outside the segment. */
    @Test
    void rangesOfALocalSegmentMoveWithoutASlice() {
        try (Arena arena = Arena.ofConfined()) {
            long pid = Proc.pid();
            MemorySegment local = arena.allocate(256);
            MemorySegment remote = arena.allocate(256);
            for (int i = 0; i < 256; i++) {
                local.set(ValueLayout.JAVA_BYTE, i, (byte) i);
            }
            assertThat(Cma.write(pid, local, 16, 32, remote.address() + 100)).isEqualTo(32);
            assertThat(remote.asSlice(100, 32).mismatch(local.asSlice(16, 32))).isEqualTo(-1);
            assertThat(remote.get(ValueLayout.JAVA_BYTE, 99)).as("nothing before the range").isZero();
            assertThat(remote.get(ValueLayout.JAVA_BYTE, 132)).as("nothing after it").isZero();
            MemorySegment back = arena.allocate(256);
            assertThat(Cma.read(pid, remote.address() + 100, back, 200, 32)).isEqualTo(32);
            assertThat(back.asSlice(200, 32).mismatch(local.asSlice(16, 32))).isEqualTo(-1);
            assertThatThrownBy(() -> Cma.write(pid, local, 240, 32, remote.address()))
                    .isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> Cma.read(pid, remote.address(), back, -1, 8))
                    .isInstanceOf(IndexOutOfBoundsException.class);
        }
    }

    @Test
    void outcomesAreNegativeErrnos() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(16);
            assertThat(Cma.read(NO_SUCH_PID, buf.address(), buf)).isEqualTo(-Cma.ESRCH);
            assertThat(Cma.write(NO_SUCH_PID, buf, buf.address())).isEqualTo(-Cma.ESRCH);
            assertThat(Cma.read(Proc.pid(), 0, buf)).as("an unmapped address").isEqualTo(-Cma.EFAULT);
            assertThat(Cma.write(Proc.pid(), buf, 8)).isEqualTo(-Cma.EFAULT);
            assertThat(Cma.probe(Proc.pid(), buf.address())).isZero();
            assertThat(Cma.probe(Proc.pid(), 0)).isEqualTo(-Cma.EFAULT);
            assertThat(Cma.probe(NO_SUCH_PID, buf.address())).isEqualTo(-Cma.ESRCH);
            assertThat(Cma.read(Proc.pid(), 0, buf.asSlice(0, 0))).as("nothing to move").isZero();
        }
    }

    @Test
    void badArgumentsAreTypedErrors() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(16);
            assertInvalid(() -> Cma.read(0, buf.address(), buf), "pid 0");
            assertInvalid(() -> Cma.write(-1, buf, buf.address()), "pid -1");
            assertInvalid(() -> Cma.read(1L << 33, buf.address(), buf), "out of range");
            assertInvalid(() -> Cma.read(Proc.pid(), buf.address(), MemorySegment.ofArray(new byte[4])), "heap");
            assertInvalid(() -> Cma.write(Proc.pid(), null, buf.address()), "null");
        }
        Arena closed = Arena.ofConfined();
        MemorySegment gone = closed.allocate(16);
        closed.close();
        assertInvalid(() -> Cma.write(Proc.pid(), gone, 4096), "closed");
        assertInvalid(() -> Cma.read(Proc.pid(), 4096, gone), "closed");
    }

    @Test
    void aCopyAllocatesNothingInSteadyState() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment src = arena.allocate(256);
            MemorySegment dst = arena.allocate(256);
            long pid = Proc.pid();
            Allocation.assertNoneIn(() -> {
                Cma.write(pid, src, dst.address());
                Cma.read(pid, src.address(), dst);
            });
        }
    }

    private static void assertInvalid(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String text) {
        assertThatThrownBy(call).isInstanceOfSatisfying(VerbsException.class,
                e -> assertThat(e.errno()).isEqualTo(Errno.EINVAL)).hasMessageContaining(text);
    }
}
