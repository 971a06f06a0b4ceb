package org.jrdma.shm.sys;

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

    private static long start(ProcessHandle p) {
        return p.info().startInstant().map(Instant::toEpochMilli).orElse(-1L);
    }
}
