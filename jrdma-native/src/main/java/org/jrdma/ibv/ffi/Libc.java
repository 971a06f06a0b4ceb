package org.jrdma.ibv.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;

/**
 * The two libc calls the event waits need: the completion channel's and the context's async fd
 * are made non-blocking (fcntl), and a wait is poll(2) on the fd with a timeout, so that a waiting
 * thread sleeps in the kernel, wakes at its deadline, and can be interrupted between slices.
 */
public final class Libc {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final int F_GETFL = 3;
    private static final int F_SETFL = 4;
    private static final int O_NONBLOCK = 04000;
    public static final short POLLIN = 1;
    private static final int EINTR = 4;

    /** struct pollfd { int fd; short events; short revents; } */
    private static final StructLayout POLLFD = MemoryLayout.structLayout(
            JAVA_INT.withName("fd"), JAVA_SHORT.withName("events"), JAVA_SHORT.withName("revents"));

    // int fcntl(int fd, int cmd, ...): variadic, one int argument here
    private static final MethodHandle fcntl$mh = LINKER.downcallHandle(LINKER.defaultLookup().findOrThrow("fcntl"),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT), Linker.Option.firstVariadicArg(2),
            Linker.Option.captureCallState("errno"));
    // int poll(struct pollfd *fds, nfds_t nfds, int timeout)
    private static final MethodHandle poll$mh = LINKER.downcallHandle(LINKER.defaultLookup().findOrThrow("poll"),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, java.lang.foreign.ValueLayout.JAVA_LONG, JAVA_INT),
            Linker.Option.captureCallState("errno"));

    private Libc() {
    }

    /** Sets O_NONBLOCK on {@code fd}; returns 0 or the errno. */
    public static int setNonBlocking(int fd) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(Ibv.CALL_STATE);
            int flags = (int) fcntl$mh.invokeExact(state, fd, F_GETFL, 0);
            if (flags < 0) {
                return Ibv.errno(state);
            }
            int rc = (int) fcntl$mh.invokeExact(state, fd, F_SETFL, flags | O_NONBLOCK);
            return rc < 0 ? Ibv.errno(state) : 0;
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * Waits up to {@code timeoutMillis} for {@code fd} to become readable: true when it is, false
     * on timeout or EINTR (the caller re-checks its deadline and interrupt flag), -errno never.
     */
    public static boolean pollIn(int fd, int timeoutMillis) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment pfd = a.allocate(POLLFD);
            pfd.set(JAVA_INT, 0, fd);
            pfd.set(JAVA_SHORT, 4, POLLIN);
            MemorySegment state = a.allocate(Ibv.CALL_STATE);
            int rc = (int) poll$mh.invokeExact(state, pfd, 1L, timeoutMillis);
            if (rc < 0 && Ibv.errno(state) != EINTR) {
                throw new IllegalStateException("poll(2) on fd " + fd + " failed: errno " + Ibv.errno(state));
            }
            return rc > 0;
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }
}
