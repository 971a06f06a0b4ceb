package org.jrdma.shm.sys;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Instant;
import java.util.Optional;

/**
 * Processes by pid, guarded against pid reuse: a peer is identified by its pid and its start time,
 * so that a new process that got a dead peer's pid is not taken for it.
 */
public final class Proc {
    private Proc() {
    }

    /** {@return this process's pid} */
    public static long pid() {
        return ProcessHandle.current().pid();
    }

    /** {@return this process's start time in epoch milliseconds, or -1 when the JDK cannot tell} */
    public static long startMillis() {
        return start(ProcessHandle.current());
    }

    /**
     * Whether the process that started at {@code startMillis} with this pid still runs.
     *
     * @param pid         the process's pid
     * @param startMillis its start time as {@link #startMillis()} gave it in that process, or
     *                    negative when unknown
     * @return true when a process with the pid is alive and (when both start times are known)
     *         started at {@code startMillis}; false for a pid that is not positive
     */
    public static boolean alive(long pid, long startMillis) {
        if (pid <= 0) {
            return false;
        }
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isEmpty() || !handle.get().isAlive()) {
            return false;
        }
        long started = start(handle.get());
        // no start time on one side (the JDK could not read it): alive is all that can be said
        return startMillis < 0 || started < 0 || started == startMillis;
    }

    /** pidfd_open(2), the same number on every Linux architecture (since 5.3). */
    private static final long SYS_PIDFD_OPEN = 434;
    private static final short POLLIN = 1;

    /**
     * A pidfd for the process: a descriptor that becomes readable when the process exits, so
     * that liveness is one poll(2) that allocates nothing and cannot be fooled by pid reuse.
     * Check {@link #alive} after opening it to know it names the process meant.
     *
     * @param pid the process
     * @return the descriptor, or -errno (ENOSYS before Linux 5.3, ESRCH when it is gone)
     */
    public static int pidfdOpen(long pid) {
        int p = Sys.pid("pidfd_open", pid);
        if (!Sys.linked()) {
            return -Sys.ENOSYS;
        }
        Sys sys = Sys.get("pidfd_open");
        MemorySegment state = Sys.scratch().state;
        try {
            long rc = (long) sys.syscall2.invokeExact(state, SYS_PIDFD_OPEN, (long) p, 0L);
            return rc < 0 ? -Sys.errno(state) : (int) rc;
        } catch (Throwable t) {
            throw Sys.rethrow(t);
        }
    }

    /**
     * Whether the process of a pidfd has exited (poll with no wait). Allocates nothing.
     *
     * @param pidfd a descriptor from {@link #pidfdOpen}
     * @return true when it exited (or the descriptor is bad: nothing is known to be alive)
     */
    public static boolean exited(int pidfd) {
        if (pidfd < 0) {
            return true;
        }
        Sys sys = Sys.get("poll");
        Sys.Scratch scratch = Sys.scratch();
        MemorySegment fd = scratch.pollfd;
        fd.set(ValueLayout.JAVA_INT, 0, pidfd);
        fd.set(ValueLayout.JAVA_SHORT, 4, POLLIN);
        fd.set(ValueLayout.JAVA_SHORT, 6, (short) 0);
        try {
            int rc = (int) sys.pollBare.invokeExact(fd, 1L, 0); // errno not needed: a failure reads as exited
            return rc != 0 && (rc < 0 || fd.get(ValueLayout.JAVA_SHORT, 6) != 0); // POLLIN, or POLLERR/POLLNVAL on a bad fd
        } catch (Throwable t) {
            throw Sys.rethrow(t);
        }
    }

    /**
     * Closes a descriptor this package handed out (a pidfd).
     *
     * @param fd the descriptor; negative ones are ignored
     */
    public static void close(int fd) {
        if (fd >= 0 && Sys.linked()) {
            try {
                int ignored = (int) Sys.get("close").close.invokeExact(Sys.scratch().state, fd);
            } catch (Throwable t) {
                throw Sys.rethrow(t);
            }
        }
    }

    private static long start(ProcessHandle p) {
        return p.info().startInstant().map(Instant::toEpochMilli).orElse(-1L);
    }
}
