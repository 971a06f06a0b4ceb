package org.jrdma.shm.sys;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.jrdma.testkit.ChildJvm;
import org.junit.jupiter.api.Test;

/** Another process's memfd, futex word and memory, as the shm provider will use them. */
class ChildProcessTest {
    @Test
    void mapsTheChildsMemfdAndSeesItsWritesAndWakes() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "--enable-native-access=ALL-UNNAMED", "-cp",
                ChildJvm.classPath(ShmChild.class), ShmChild.class.getName())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (Arena arena = Arena.ofShared()) {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            assertThat(line).as("the child's pid fd name address start").isNotNull();
            String[] f = line.split(" ");
            long pid = Long.parseLong(f[0]);
            int fd = Integer.parseInt(f[1]);
            String name = f[2];
            long address = Long.parseLong(f[3]);
            long start = Long.parseLong(f[4]);
            assertThat(pid).isEqualTo(p.pid());
            assertThat(Proc.alive(pid, start)).as("alive, with the start time it reported").isTrue();
            assertThat(Proc.alive(pid, start + 1000)).as("a pid reused by another process").isFalse();

            MemorySegment s = Memfd.openPeer(pid, fd, name, ShmChild.SIZE, arena).segment();
            assertThat(Cma.probe(pid, address)).as("ptrace access to the child").isZero();

            MemorySegment go = s.asSlice(0, 4);
            MemorySegment done = s.asSlice(4, 4);
            go.set(ValueLayout.JAVA_INT, 0, 1);
            Futex.wake(go, 1);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (done.get(ValueLayout.JAVA_INT, 0) != 42 && System.nanoTime() < deadline) {
                Futex.await(done, 0, Math.max(0, deadline - System.nanoTime()));
            }
            assertThat(done.get(ValueLayout.JAVA_INT, 0)).as("the child's flag").isEqualTo(42);
            byte[] msg = ShmChild.MESSAGE.getBytes(StandardCharsets.US_ASCII);
            assertThat(s.asSlice(64, msg.length).toArray(ValueLayout.JAVA_BYTE)).isEqualTo(msg);

            MemorySegment local = arena.allocate(msg.length);
            assertThat(Cma.read(pid, address + 64, local)).isEqualTo(msg.length);
            assertThat(local.toArray(ValueLayout.JAVA_BYTE)).as("the same bytes, read by CMA").isEqualTo(msg);

            p.getOutputStream().close();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the child ends").isTrue();
            assertThat(p.exitValue()).isZero();
            assertThat(Proc.alive(pid, start)).as("the child has exited").isFalse();
            assertThat(Cma.read(pid, address, local)).isEqualTo(-Cma.ESRCH);
            assertThat(s.asSlice(64, msg.length).toArray(ValueLayout.JAVA_BYTE))
                    .as("the memory outlives the process that made it").isEqualTo(msg);
        } finally {
            p.destroyForcibly();
        }
    }
}
