package org.jrdma.shm.sys;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;

/**
 * Anonymous shared memory between processes: memfd_create(2) memory mapped MAP_SHARED, which a
 * peer process maps through {@code /proc/<pid>/fd/<fd>}. Nothing is ever created in a file
 * system, so a crashed process leaves no file behind: the memory goes with the last mapping or
 * descriptor.
 */
public final class Memfd {
    /** The longest name memfd_create accepts, in bytes (NAME_MAX minus "memfd:"). */
    public static final int MAX_NAME_BYTES = 249;
    private static final int LINK_MAX = 4096;

    private Memfd() {
    }

    /**
     * Creates a memfd of {@code size} bytes (zero-filled) and maps it read-write, shared. The
     * descriptor stays open while {@code arena} lives, so that a peer can open it; closing the
     * arena unmaps the memory and closes the descriptor.
     *
     * @param name  the memfd's name (what {@code /proc/<pid>/fd/<fd>} shows after
     *              {@code /memfd:}), 1 to {@value #MAX_NAME_BYTES} UTF-8 bytes, no NUL
     * @param size  the size in bytes, positive
     * @param arena the arena the mapping lives in, open
     * @return the descriptor, the name and the mapped segment of exactly {@code size} bytes
     * @throws VerbsException EINVAL for a bad name, size or a closed arena; the call's errno
     *                        (ENOMEM, ENOSPC for too many open files, ...) when the kernel refuses
     */
    public static SharedMapping create(String name, long size, Arena arena) {
        checkName("memfd_create", name);
        checkSize("memfd_create(\"" + name + "\")", size);
        checkArena("memfd_create(\"" + name + "\")", arena);
        Sys sys = Sys.get("memfd_create");
        MemorySegment state = Sys.scratch().state;
        int fd;
        try (Arena call = Arena.ofConfined()) {
            fd = (int) sys.memfdCreate.invokeExact(state, call.allocateFrom(name), Sys.MFD_CLOEXEC);
        } catch (Throwable t) {
            throw Sys.rethrow(t);
        }
        if (fd < 0) {
            throw sys.fail("memfd_create(\"" + name + "\")", Sys.errno(state));
        }
        try {
            int rc = (int) sys.ftruncate.invokeExact(state, fd, size);
            if (rc < 0) {
                throw sys.fail("ftruncate(memfd \"" + name + "\" fd " + fd + ", " + size + ")", Sys.errno(state));
            }
            long address = map(sys, state, fd, size, "memfd \"" + name + "\" fd " + fd);
            MemorySegment segment = wrap(sys, address, size, arena, fd, "memfd_create(\"" + name + "\")");
            return new SharedMapping(fd, name, segment);
        } catch (RuntimeException | Error e) {
            closeQuietly(sys, fd);
            throw e;
        } catch (Throwable t) {
            closeQuietly(sys, fd);
            throw Sys.rethrow(t);
        }
    }

    /**
     * Maps a peer process's memfd, found as {@code /proc/<pid>/fd/<fd>}. The link must read
     * {@code /memfd:<expectedName> (deleted)} (before and after opening it), so that a reused
     * descriptor number or a reused pid is refused rather than mapped. The descriptor this
     * process opens is closed at once; the mapping keeps the memory, and closing {@code arena}
     * unmaps it.
     *
     * @param pid          the peer's pid
     * @param fd           the memfd's descriptor number in the peer
     * @param expectedName the name the peer gave the memfd
     * @param size         the bytes to map, positive; the memfd must be at least this long
     * @param arena        the arena the mapping lives in, open
     * @return a mapping with {@code fd} -1, the name and the segment of exactly {@code size} bytes
     * @throws VerbsException EINVAL when the descriptor is not that memfd (reused fd, another
     *                        process) or is shorter than {@code size}, or for bad arguments;
     *                        ENOENT when the process or descriptor is gone; EACCES or EPERM when
     *                        the peer is another user or ptrace rules forbid opening it
     */
    public static SharedMapping openPeer(long pid, int fd, String expectedName, long size, Arena arena) {
        Sys.pid("openPeer", pid);
        if (fd < 0) {
            throw Sys.invalid("openPeer: fd " + fd + " is negative");
        }
        checkName("openPeer", expectedName);
        String path = "/proc/" + pid + "/fd/" + fd;
        String what = "openPeer(" + path + ", memfd \"" + expectedName + "\")";
        checkSize(what, size);
        checkArena(what, arena);
        Sys sys = Sys.get("openPeer");
        MemorySegment state = Sys.scratch().state;
        String expected = "/memfd:" + expectedName + " (deleted)";
        try (Arena call = Arena.ofConfined()) {
            checkLink(sys, state, call, path, expected, what);
            int local = (int) sys.open.invokeExact(state, call.allocateFrom(path), Sys.O_RDWR | Sys.O_CLOEXEC, 0);
            if (local < 0) {
                int errno = Sys.errno(state);
                throw refused(sys, "open(" + path + ")", errno, what);
            }
            try {
                // the number may have been reused between the readlink and the open: check what was opened
                checkLink(sys, state, call, "/proc/self/fd/" + local, expected, what);
                long length = (long) sys.lseek.invokeExact(state, local, 0L, Sys.SEEK_END);
                if (length < 0) {
                    throw sys.fail("lseek(" + path + ", SEEK_END)", Sys.errno(state));
                }
                if (length < size) {
                    throw Sys.invalid(what + ": the memfd is " + length + " bytes, less than the " + size + " to map");
                }
                long address = map(sys, state, local, size, path);
                return new SharedMapping(-1, expectedName, wrap(sys, address, size, arena, -1, what));
            } finally {
                closeQuietly(sys, local);
            }
        } catch (Throwable t) {
            throw Sys.rethrow(t);
        }
    }

    private static void checkLink(Sys sys, MemorySegment state, Arena call, String path, String expected, String what)
            throws Throwable {
        MemorySegment buf = call.allocate(LINK_MAX);
        long n = (long) sys.readlink.invokeExact(state, call.allocateFrom(path), buf, (long) LINK_MAX);
        if (n < 0) {
            throw refused(sys, "readlink(" + path + ")", Sys.errno(state), what);
        }
        String target = new String(buf.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
        if (n >= LINK_MAX || !target.equals(expected)) {
            throw Sys.invalid(what + ": " + path + " links to \"" + target + "\", not \"" + expected
                    + "\": the descriptor was closed and reused, or the pid is another process");
        }
    }

    private static VerbsException refused(Sys sys, String call, int errno, String what) {
        return switch (errno) {
            case Sys.ENOENT -> new VerbsException(Errno.ENOENT, what + ": " + call + ": " + sys.describe(errno)
                    + ": the peer process has exited or closed the descriptor");
            case Sys.EACCES, Sys.EPERM -> new VerbsException(Sys.typed(errno), what + ": " + call + ": "
                    + sys.describe(errno) + ": the peer runs as another user, or ptrace rules (kernel.yama.ptrace_scope,"
                    + " a non-dumpable peer) forbid this process to open its descriptors");
            default -> sys.fail(what + ": " + call, errno);
        };
    }

    private static long map(Sys sys, MemorySegment state, int fd, long size, String what) throws Throwable {
        long address = (long) sys.mmap.invokeExact(state, 0L, size, Sys.PROT_READ | Sys.PROT_WRITE, Sys.MAP_SHARED,
                fd, 0L);
        if (address == Sys.MAP_FAILED) {
            throw sys.fail("mmap(" + what + ", " + size + " bytes, MAP_SHARED)", Sys.errno(state));
        }
        return address;
    }

    /**
     * The mapping as a segment whose arena's close unmaps it (and closes {@code fd} when it is
     * not -1); unmapped at once if the arena cannot take it.
     */
    private static MemorySegment wrap(Sys sys, long address, long size, Arena arena, int fd, String what) {
        try {
            return MemorySegment.ofAddress(address).reinterpret(size, arena, s -> release(address, size, fd));
        } catch (IllegalStateException | WrongThreadException e) {
            unmapQuietly(sys, address, size);
            throw new VerbsException(Errno.EINVAL, what + ": the arena cannot take the mapping: " + e.getMessage(), e);
        }
    }

    /** The arena's cleanup: must not throw, and may run on any thread (or the cleaner's). */
    private static void release(long address, long size, int fd) {
        Sys sys = Sys.get("munmap");
        unmapQuietly(sys, address, size);
        if (fd >= 0) {
            closeQuietly(sys, fd);
        }
    }

    private static void unmapQuietly(Sys sys, long address, long size) {
        try {
            int ignored = (int) sys.munmap.invokeExact(Sys.scratch().state, address, size);
        } catch (Throwable t) {
            // nothing to do in a cleanup: the mapping goes with the process
        }
    }

    private static void closeQuietly(Sys sys, int fd) {
        try {
            int ignored = (int) sys.close.invokeExact(Sys.scratch().state, fd);
        } catch (Throwable t) {
            // close(2) releases the descriptor even when it reports an error
        }
    }

    private static void checkName(String call, String name) {
        if (name == null || name.isEmpty()) {
            throw Sys.invalid(call + ": the memfd name is " + (name == null ? "null" : "empty"));
        }
        if (name.indexOf('\0') >= 0) {
            throw Sys.invalid(call + ": the memfd name \"" + name.replace('\0', '?') + "\" contains NUL");
        }
        int bytes = name.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_NAME_BYTES) {
            throw Sys.invalid(call + ": the memfd name is " + bytes + " bytes, more than " + MAX_NAME_BYTES);
        }
    }

    private static void checkSize(String what, long size) {
        if (size <= 0) {
            throw Sys.invalid(what + ": size " + size + " is not positive");
        }
    }

    private static void checkArena(String what, Arena arena) {
        if (arena == null) {
            throw Sys.invalid(what + ": the arena is null");
        }
        if (!arena.scope().isAlive()) {
            throw Sys.invalid(what + ": the arena is closed");
        }
    }
}
