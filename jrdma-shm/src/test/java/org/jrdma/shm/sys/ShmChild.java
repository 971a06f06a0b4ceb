package org.jrdma.shm.sys;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/**
 * The child JVM of {@link ChildProcessTest}: creates a memfd mapping, prints
 * {@code pid fd name address startMillis}, waits (futex) for the parent to set word 0 to 1, then
 * writes {@link #MESSAGE} at offset 64, sets word 4 to 42 and wakes it, and exits when its stdin
 * closes. Exits 2 if the parent never answers.
 */
public final class ShmChild {
    static final String MESSAGE = "written by the child";
    static final long SIZE = 4096;

    private ShmChild() {
    }

    /**
     * Runs the child.
     *
     * @param args none
     * @throws Exception if stdin fails
     */
    public static void main(String[] args) throws Exception {
        Arena arena = Arena.ofShared();
        String name = "jrdma-shmsys-child-" + Proc.pid();
        SharedMapping m = Memfd.create(name, SIZE, arena);
        MemorySegment s = m.segment();
        System.out.println(Proc.pid() + " " + m.fd() + " " + name + " " + s.address() + " " + Proc.startMillis());
        System.out.flush();
        long deadline = System.nanoTime() + 60_000_000_000L;
        MemorySegment go = s.asSlice(0, 4);
        while (go.get(ValueLayout.JAVA_INT, 0) != 1) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                System.exit(2);
            }
            Futex.await(go, 0, left);
        }
        byte[] msg = MESSAGE.getBytes(StandardCharsets.US_ASCII);
        MemorySegment.copy(msg, 0, s, ValueLayout.JAVA_BYTE, 64, msg.length);
        MemorySegment done = s.asSlice(4, 4);
        done.set(ValueLayout.JAVA_INT, 0, 42);
        Futex.wake(done, Integer.MAX_VALUE);
        while (System.in.read() >= 0) {
            // the parent closes stdin when it is done with the mapping
        }
        arena.close();
    }
}
