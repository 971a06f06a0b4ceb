package org.jrdma.shm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import org.jrdma.shm.sys.Cma;

/**
 * Where a resolved piece of registered memory is, as this process can reach it: a segment it
 * maps (its own memory, or a peer's memfd mapped here) at an offset, or an address in another
 * process reached by cross-memory attach. Reused by its owner, so resolving allocates nothing.
 *
 * <p>Copies report failure rather than throw: the memory may be freed under us (a closed
 * arena, a peer's unmapped range), and that is an access error of the request, not a crash.
 */
final class Target {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    MemorySegment segment;
    long offset;
    long pid;
    long address;
    /** The errno of the last cross-memory attach that failed (0 when the last failure was not one). */
    int cmaErrno;

    void local(MemorySegment segment, long offset) {
        this.segment = segment;
        this.offset = offset;
    }

    void remote(long pid, long address) {
        this.segment = null;
        this.pid = pid;
        this.address = address;
    }

    boolean mapped() {
        return segment != null;
    }

    /** Copies {@code length} bytes from {@code src} at {@code srcOffset} to this target plus {@code at}. */
    boolean write(long at, MemorySegment src, long srcOffset, long length) {
        if (length == 0) {
            return true;
        }
        try {
            if (segment != null) {
                MemorySegment.copy(src, srcOffset, segment, offset + at, length);
                return true;
            }
            return cma(Cma.write(pid, src, srcOffset, length, address + at), length);
        } catch (IllegalStateException | IndexOutOfBoundsException e) {
            return false;
        }
    }

    /** Copies {@code length} bytes from this target plus {@code at} to {@code dst} at {@code dstOffset}. */
    boolean read(long at, MemorySegment dst, long dstOffset, long length) {
        if (length == 0) {
            return true;
        }
        try {
            if (segment != null) {
                MemorySegment.copy(segment, offset + at, dst, dstOffset, length);
                return true;
            }
            return cma(Cma.read(pid, address + at, dst, dstOffset, length), length);
        } catch (IllegalStateException | IndexOutOfBoundsException e) {
            return false;
        }
    }

    private boolean cma(long moved, long length) {
        cmaErrno = moved < 0 ? (int) -moved : 0;
        return moved == length;
    }

    /** Whether an 8-byte atomic can be done here: mapped memory at an 8-aligned address. */
    boolean atomicCapable() {
        return segment != null && ((segment.address() + offset) & 7) == 0;
    }

    /** Compare-and-swap on the 8 bytes here; returns the original value. */
    long compareAndSwap(long expected, long swap) {
        return (long) LONG.compareAndExchange(segment, offset, expected, swap);
    }

    /** Fetch-and-add on the 8 bytes here; returns the original value. */
    long fetchAndAdd(long add) {
        return (long) LONG.getAndAdd(segment, offset, add);
    }
}
