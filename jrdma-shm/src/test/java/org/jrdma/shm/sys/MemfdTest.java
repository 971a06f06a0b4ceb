package org.jrdma.shm.sys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;
import org.junit.jupiter.api.Test;

class MemfdTest {
    private static final long SIZE = 3 * 4096 + 100;

    private static String name(String what) {
        return "jrdma-shmsys-" + what + "-" + Proc.pid();
    }

    @Test
    void aPeerMappingOfTheSameFdSeesTheBytesBothWays() throws Exception {
        String name = name("both-ways");
        try (Arena theirs = Arena.ofConfined()) {
            Arena mine = Arena.ofConfined();
            SharedMapping m = Memfd.create(name, SIZE, mine);
            assertThat(m.name()).isEqualTo(name);
            assertThat(m.segment().byteSize()).isEqualTo(SIZE);
            assertThat(Files.readSymbolicLink(Path.of("/proc/self/fd/" + m.fd())).toString())
                    .isEqualTo("/memfd:" + name + " (deleted)");
            assertThat(m.segment().get(ValueLayout.JAVA_LONG, 8)).as("zero-filled").isZero();
            m.segment().set(ValueLayout.JAVA_LONG, 8, 0x1122334455667788L);

            SharedMapping peer = Memfd.openPeer(Proc.pid(), m.fd(), name, SIZE, theirs);
            assertThat(peer.fd()).isEqualTo(-1);
            assertThat(peer.segment().address()).as("a second mapping").isNotEqualTo(m.segment().address());
            assertThat(peer.segment().get(ValueLayout.JAVA_LONG, 8)).isEqualTo(0x1122334455667788L);
            peer.segment().set(ValueLayout.JAVA_INT, SIZE - 4, 0xCAFEBABE);
            assertThat(m.segment().get(ValueLayout.JAVA_INT, SIZE - 4)).isEqualTo(0xCAFEBABE);

            mine.close();
            assertThat(fdIs(m.fd(), name)).as("closing the arena closes the fd").isFalse();
            assertThat(peer.segment().get(ValueLayout.JAVA_LONG, 8)).as("the peer's mapping keeps the memory")
                    .isEqualTo(0x1122334455667788L);
        }
    }

    @Test
    void aSmallerMappingOfALargerMemfdIsAllowed() {
        String name = name("smaller");
        try (Arena arena = Arena.ofConfined()) {
            SharedMapping m = Memfd.create(name, SIZE, arena);
            assertThat(Memfd.openPeer(Proc.pid(), m.fd(), name, 4096, arena).segment().byteSize()).isEqualTo(4096);
        }
    }

    @Test
    void aWrongNameIsRefused() {
        String name = name("wrong-name");
        try (Arena arena = Arena.ofConfined()) {
            SharedMapping m = Memfd.create(name, SIZE, arena);
            assertThatThrownBy(() -> Memfd.openPeer(Proc.pid(), m.fd(), name + "x", SIZE, arena))
                    .isInstanceOfSatisfying(VerbsException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EINVAL))
                    .hasMessageContaining("/proc/" + Proc.pid() + "/fd/" + m.fd()).hasMessageContaining("reused");
        }
    }

    @Test
    void aLongerSizeThanTheMemfdIsRefused() {
        String name = name("too-long");
        try (Arena arena = Arena.ofConfined()) {
            SharedMapping m = Memfd.create(name, SIZE, arena);
            assertThatThrownBy(() -> Memfd.openPeer(Proc.pid(), m.fd(), name, SIZE + 1, arena))
                    .isInstanceOfSatisfying(VerbsException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EINVAL))
                    .hasMessageContaining("less than");
        }
    }

    @Test
    void aDescriptorThatIsNotOpenIsENOENT() {
        try (Arena arena = Arena.ofConfined()) {
            assertThatThrownBy(() -> Memfd.openPeer(Proc.pid(), 1 << 20, "nothing", 4096, arena))
                    .isInstanceOfSatisfying(VerbsException.class, e -> assertThat(e.errno()).isEqualTo(Errno.ENOENT))
                    .hasMessageContaining("readlink");
        }
    }

    @Test
    void badArgumentsAreTypedErrors() {
        try (Arena arena = Arena.ofConfined()) {
            assertInvalid(() -> Memfd.create("x", -1, arena), "size -1");
            assertInvalid(() -> Memfd.create("x", 0, arena), "size 0");
            assertInvalid(() -> Memfd.create(null, 4096, arena), "null");
            assertInvalid(() -> Memfd.create("", 4096, arena), "empty");
            assertInvalid(() -> Memfd.create("a\0b", 4096, arena), "NUL");
            assertInvalid(() -> Memfd.create("n".repeat(Memfd.MAX_NAME_BYTES + 1), 4096, arena), "more than");
            assertInvalid(() -> Memfd.create("x", 4096, null), "arena is null");
            assertInvalid(() -> Memfd.openPeer(0, 3, "x", 4096, arena), "pid 0");
            assertInvalid(() -> Memfd.openPeer(-5, 3, "x", 4096, arena), "pid -5");
            assertInvalid(() -> Memfd.openPeer(1L << 40, 3, "x", 4096, arena), "out of range");
            assertInvalid(() -> Memfd.openPeer(Proc.pid(), -1, "x", 4096, arena), "fd -1");
            assertInvalid(() -> Memfd.openPeer(Proc.pid(), 3, "x", -4096, arena), "size -4096");
        }
        Arena closed = Arena.ofConfined();
        closed.close();
        assertInvalid(() -> Memfd.create("x", 4096, closed), "closed");
        assertInvalid(() -> Memfd.openPeer(Proc.pid(), 3, "x", 4096, closed), "closed");
    }

    @Test
    void anArenaOfAnotherThreadIsRefusedWithoutLeakingTheFd() throws Exception {
        String name = name("other-thread");
        try (Arena arena = Arena.ofConfined()) {
            VerbsException[] thrown = new VerbsException[1];
            Thread t = new Thread(() -> {
                try {
                    Memfd.create(name, 4096, arena);
                } catch (VerbsException e) {
                    thrown[0] = e;
                }
            });
            t.start();
            t.join();
            assertThat(thrown[0]).isNotNull();
            assertThat(thrown[0].errno()).isEqualTo(Errno.EINVAL);
            try (var fds = Files.list(Path.of("/proc/self/fd"))) {
                assertThat(fds.filter(p -> fdIs(Integer.parseInt(p.getFileName().toString()), name)).count())
                        .as("no memfd left open").isZero();
            }
        }
    }

    private static boolean fdIs(int fd, String name) {
        try {
            return Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString().equals("/memfd:" + name + " (deleted)");
        } catch (Exception e) {
            return false;
        }
    }

    private static void assertInvalid(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String text) {
        assertThatThrownBy(call).isInstanceOfSatisfying(VerbsException.class,
                e -> assertThat(e.errno()).isEqualTo(Errno.EINVAL)).hasMessageContaining(text);
    }
}
