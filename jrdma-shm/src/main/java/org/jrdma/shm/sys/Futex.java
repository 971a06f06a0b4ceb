package org.jrdma.shm.sys;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;

/**
 * futex(2) on a 32-bit word in memory shared between processes (a MAP_SHARED mapping): the
 * operations are the shared ones, not FUTEX_PRIVATE_FLAG, so that a waiter in one process is
 * woken by a waker in another. glibc has no wrapper; the call goes through syscall(2), whose
 * number this class knows for x86_64 (202) and aarch64 (98) only. On any other architecture
 * {@link #available()} is false, {@link #await} returns {@link #ENOSYS} and {@link #wake} throws
 * EOPNOTSUPP.
 */
public final class Futex {
    /** The errno {@link #await} returns when the word held another value than expected. */
    public static final int EAGAIN = Sys.EAGAIN;
    /** The errno {@link #await} returns when its timeout passed. */
    public static final int ETIMEDOUT = Sys.ETIMEDOUT;
    /** The errno {@link #await} returns when a signal interrupted the wait. */
    public static final int EINTR = Sys.EINTR;
    /** The errno {@link #await} returns when futexes are not available here. */
    public static final int ENOSYS = Sys.ENOSYS;

    private static final int FUTEX_WAIT = 0;
    private static final int FUTEX_WAKE = 1;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    /** SYS_futex for this architecture, or -1 when not known. */
    private static final long SYS_FUTEX = switch (Sys.arch()) {
        case "amd64", "x86_64" -> 202;
        case "aarch64" -> 98;
        default -> -1;
    };

    private Futex() {
    }

    /** {@return true when futex calls can be made here (Linux on x86_64 or aarch64, native access)} */
    public static boolean available() {
        return SYS_FUTEX > 0 && Sys.linked();
    }

    /**
     * FUTEX_WAIT: sleeps while the word holds {@code expected}, until a {@link #wake}, the timeout
     * or a signal. The kernel compares and sleeps atomically, so a wake after the word changed
     * is never lost. Spurious returns of 0 happen: re-check the word. Allocates nothing.
     *
     * @param word          the 32-bit word, 4-byte aligned, in native memory (its first 4 bytes)
     * @param expected      the value the caller saw; the wait returns at once if it differs
     * @param timeoutNanos  the longest wait, relative; negative waits without a timeout
     * @return 0 when woken; else the errno: {@link #EAGAIN} (the word differed),
     *         {@link #ETIMEDOUT}, {@link #EINTR}, {@link #ENOSYS} (not available here), or
     *         another the kernel returned (EFAULT for memory that is no longer mapped)
     * @throws VerbsException EINVAL when the word is null, on the heap, shorter than 4 bytes,
     *                        misaligned or its arena is closed
     */
    public static int await(MemorySegment word, int expected, long timeoutNanos) {
        checkWord("futex wait", word);
        if (!available()) {
            return ENOSYS;
        }
        Sys sys = Sys.get("futex wait");
        Sys.Scratch scratch = Sys.scratch();
        MemorySegment timeout = MemorySegment.NULL;
        if (timeoutNanos >= 0) {
            timeout = scratch.timespec;
            timeout.set(ValueLayout.JAVA_LONG, 0, timeoutNanos / NANOS_PER_SECOND);
            timeout.set(ValueLayout.JAVA_LONG, 8, timeoutNanos % NANOS_PER_SECOND);
        }
        try {
            long rc = (long) sys.syscall6.invokeExact(scratch.state, SYS_FUTEX, word, (long) FUTEX_WAIT,
                    (long) expected, timeout, 0L, 0L);
            return rc < 0 ? Sys.errno(scratch.state) : 0;
        } catch (Throwable t) {
            throw Sys.rethrow(t);
        }
    }

    /**
     * FUTEX_WAIT as {@link #await}, for callers that need not know why it returned (they look at
     * the word again): no errno is captured, so it allocates nothing even before the JIT compiles
     * the caller (the progress thread and channel waits, a few calls a second).
     *
     * @param word          the 32-bit word, 4-byte aligned, in native memory
     * @param expected      the value the caller saw
     * @param timeoutNanos  the longest wait, relative; negative waits without a timeout
     * @return false when futexes are not available here (the caller must pace itself), else true
     */
    public static boolean sleep(MemorySegment word, int expected, long timeoutNanos) {
        checkWord("futex wait", word);
        if (!available()) {
            return false;
        }
        Sys sys = Sys.get("futex wait");
        MemorySegment timeout = MemorySegment.NULL;
        if (timeoutNanos >= 0) {
            timeout = Sys.scratch().timespec;
            timeout.set(ValueLayout.JAVA_LONG, 0, timeoutNanos / NANOS_PER_SECOND);
            timeout.set(ValueLayout.JAVA_LONG, 8, timeoutNanos % NANOS_PER_SECOND);
        }
        try {
            long ignored = (long) sys.syscall6Bare.invokeExact(SYS_FUTEX, word, (long) FUTEX_WAIT, (long) expected, timeout,
                    0L, 0L);
            return true;
        } catch (Throwable t) {
            throw Sys.rethrow(t);
        }
    }

    /**
     * FUTEX_WAKE: wakes up to {@code count} waiters on the word, in any process. Does not block,
     * allocates nothing.
     *
     * @param word  the 32-bit word, 4-byte aligned, in native memory
     * @param count the most waiters to wake, positive ({@link Integer#MAX_VALUE} for all)
     * @return the number woken
     * @throws VerbsException EINVAL for a bad word or count, EOPNOTSUPP when futexes are not
     *                        available here, the kernel's errno (EFAULT, ...) when it refuses
     */
    public static int wake(MemorySegment word, int count) {
        checkWord("futex wake", word);
        if (count <= 0) {
            throw Sys.invalid("futex wake: count " + count + " is not positive");
        }
        if (!available()) {
            throw new VerbsException(Errno.EOPNOTSUPP, "futex wake: no futex syscall number for " + Sys.arch()
                    + (Sys.linked() ? "" : " (" + Sys.unavailableReason() + ")"));
        }
        Sys sys = Sys.get("futex wake");
        try {
            // no errno capture (it allocates until compiled, and a wake is on the completion path)
            long rc = (long) sys.syscall6Bare.invokeExact(SYS_FUTEX, word, (long) FUTEX_WAKE, (long) count,
                    MemorySegment.NULL, 0L, 0L);
            if (rc < 0) {
                throw new VerbsException(Errno.EFAULT, "futex wake(0x" + Long.toHexString(word.address())
                        + "): refused by the kernel (the word is not in mapped memory)");
            }
            return (int) rc;
        } catch (Throwable t) {
            throw Sys.rethrow(t);
        }
    }

    private static void checkWord(String call, MemorySegment word) {
        Sys.checkNative(call, "the futex word", word);
        if (word.byteSize() < 4) {
            throw Sys.invalid(call + ": the futex word segment is " + word.byteSize() + " bytes, less than 4");
        }
        if ((word.address() & 3) != 0) {
            throw Sys.invalid(call + ": the futex word at 0x" + Long.toHexString(word.address())
                    + " is not 4-byte aligned");
        }
    }
}
