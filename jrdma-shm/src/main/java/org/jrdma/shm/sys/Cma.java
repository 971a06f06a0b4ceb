package org.jrdma.shm.sys;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Cross-memory attach: process_vm_writev(2) and process_vm_readv(2) copy between this process's
 * memory and another's in one kernel copy, with no shared mapping. The kernel checks the same
 * ptrace access a debugger needs (same user, and Yama's ptrace_scope), and reports remote memory
 * that is not mapped as EFAULT rather than faulting. Each call uses this thread's reusable iovec
 * memory, so a steady-state call allocates nothing.
 *
 * <p>Failures of the copy itself are outcomes, returned as {@code -errno}: {@link #EPERM} (no
 * ptrace access), {@link #ESRCH} (no such process), {@link #EFAULT} (an address not mapped);
 * only bad arguments are thrown. With {@code pid} this process, a wrong remote address inside
 * mapped memory overwrites it: the kernel cannot tell.
 */
public final class Cma {
    /** {@code -EPERM}'s errno: the caller may not access the process's memory. */
    public static final int EPERM = Sys.EPERM;
    /** {@code -ESRCH}'s errno: no process with that pid. */
    public static final int ESRCH = Sys.ESRCH;
    /** {@code -EFAULT}'s errno: an address range is not mapped (in either process). */
    public static final int EFAULT = Sys.EFAULT;

    /** {@link #copy}'s length for "the whole segment", resolved once the segment is checked. */
    private static final long WHOLE = -1;

    private Cma() {
    }

    /**
     * Copies all of {@code local} to {@code remoteAddress} in process {@code pid}.
     *
     * @param pid           the target process
     * @param local         the bytes to copy, native memory
     * @param remoteAddress where they go in the target's address space
     * @return the bytes written (fewer than asked only if the remote range ends in unmapped
     *         memory), or {@code -errno}
     * @throws org.jrdma.verbs.VerbsException EINVAL for a pid out of range, a heap segment or a
     *                                        closed arena
     */
    public static long write(long pid, MemorySegment local, long remoteAddress) {
        return copy("process_vm_writev", pid, local, 0, WHOLE, remoteAddress, true);
    }

    /**
     * Copies {@code length} bytes of {@code local} from {@code offset} to {@code remoteAddress} in
     * process {@code pid}, as {@link #write(long, MemorySegment, long)} of that slice, without
     * making the slice (the data path allocates nothing).
     *
     * @param pid           the target process
     * @param local         native memory holding the bytes
     * @param offset        where they start in {@code local}
     * @param length        how many
     * @param remoteAddress where they go in the target's address space
     * @return the bytes written, or {@code -errno}
     * @throws IndexOutOfBoundsException when the range is not inside {@code local}
     * @throws org.jrdma.verbs.VerbsException EINVAL for a pid out of range, a heap segment or a
     *                                        closed arena
     */
    public static long write(long pid, MemorySegment local, long offset, long length, long remoteAddress) {
        return copy("process_vm_writev", pid, local, offset, length, remoteAddress, true);
    }

    /**
     * Copies {@code local.byteSize()} bytes from {@code remoteAddress} in process {@code pid} into
     * {@code local}.
     *
     * @param pid           the source process
     * @param remoteAddress where the bytes are in the source's address space
     * @param local         where they go, native memory
     * @return the bytes read (fewer than asked only if the remote range ends in unmapped memory),
     *         or {@code -errno}
     * @throws org.jrdma.verbs.VerbsException EINVAL for a pid out of range, a heap segment or a
     *                                        closed arena
     */
    public static long read(long pid, long remoteAddress, MemorySegment local) {
        return copy("process_vm_readv", pid, local, 0, WHOLE, remoteAddress, false);
    }

    /**
     * Copies {@code length} bytes from {@code remoteAddress} in process {@code pid} into
     * {@code local} at {@code offset}, without making a slice.
     *
     * @param pid           the source process
     * @param remoteAddress where the bytes are in the source's address space
     * @param local         native memory to receive them
     * @param offset        where they go in {@code local}
     * @param length        how many
     * @return the bytes read, or {@code -errno}
     * @throws IndexOutOfBoundsException when the range is not inside {@code local}
     * @throws org.jrdma.verbs.VerbsException EINVAL for a pid out of range, a heap segment or a
     *                                        closed arena
     */
    public static long read(long pid, long remoteAddress, MemorySegment local, long offset, long length) {
        return copy("process_vm_readv", pid, local, offset, length, remoteAddress, false);
    }

    /**
     * Whether this process may read process {@code pid}'s memory: reads one byte at
     * {@code remoteAddress}, an address the peer said is mapped (its shared segment, say).
     *
     * @param pid           the peer process
     * @param remoteAddress a mapped, readable address in the peer
     * @return 0 when the byte was read, else {@code -errno} ({@code -EPERM}: no ptrace access,
     *         {@code -ESRCH}: no such process, {@code -EFAULT}: the address is not mapped)
     * @throws org.jrdma.verbs.VerbsException EINVAL for a pid out of range
     */
    public static int probe(long pid, long remoteAddress) {
        long n = read(pid, remoteAddress, Sys.scratch().oneByte);
        return n == 1 ? 0 : n < 0 ? (int) n : -EFAULT;
    }

    private static long copy(String call, long pid, MemorySegment local, long offset, long length, long remoteAddress,
            boolean write) {
        int target = Sys.pid(call, pid);
        Sys.checkNative(call, "the local segment", local);
        if (length == WHOLE) {
            length = local.byteSize();
        }
        java.util.Objects.checkFromIndexSize(offset, length, local.byteSize());
        if (length == 0) {
            return 0;
        }
        Sys sys = Sys.get(call);
        Sys.Scratch scratch = Sys.scratch();
        // the iovecs hold raw addresses: the scope check above is all the JVM can do, and memory
        // unmapped meanwhile comes back as EFAULT, not a crash
        scratch.localIov.set(ValueLayout.JAVA_LONG, 0, local.address() + offset);
        scratch.localIov.set(ValueLayout.JAVA_LONG, 8, length);
        scratch.remoteIov.set(ValueLayout.JAVA_LONG, 0, remoteAddress);
        scratch.remoteIov.set(ValueLayout.JAVA_LONG, 8, length);
        MethodHandle h = write ? sys.processVmWritev : sys.processVmReadv;
        try {
            long n = (long) h.invokeExact(scratch.state, target, scratch.localIov, 1L, scratch.remoteIov, 1L, 0L);
            return n < 0 ? -Sys.errno(scratch.state) : n;
        } catch (Throwable t) {
            throw Sys.rethrow(t);
        }
    }
}
