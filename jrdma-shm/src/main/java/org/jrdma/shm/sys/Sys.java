package org.jrdma.shm.sys;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Locale;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;

/**
 * The glibc downcalls of this package, their errno capture and the per-thread scratch memory that
 * keeps a steady-state call free of allocation.
 *
 * <p>Linux LP64 only (x86_64 and aarch64 share every constant and layout used here): iovec is
 * {void *base; size_t len} (16 bytes), timespec is {long sec; long nsec} (16 bytes), off_t is 64
 * bits. Constants from asm-generic/fcntl.h (O_RDWR 2, O_CLOEXEC 02000000), linux/memfd.h
 * (MFD_CLOEXEC 1), asm-generic/mman-common.h (PROT_*, MAP_SHARED 1), linux/futex.h (FUTEX_WAIT 0,
 * FUTEX_WAKE 1), asm-generic/errno*.h.
 */
final class Sys {
    static final int O_RDWR = 2;
    static final int O_CLOEXEC = 0x80000;
    static final int MFD_CLOEXEC = 1;
    static final int PROT_READ = 1;
    static final int PROT_WRITE = 2;
    static final int MAP_SHARED = 1;
    static final int SEEK_END = 2;
    static final long MAP_FAILED = -1L;

    static final int EPERM = 1;
    static final int ENOENT = 2;
    static final int ESRCH = 3;
    static final int EINTR = 4;
    static final int EAGAIN = 11;
    static final int EACCES = 13;
    static final int EFAULT = 14;
    static final int ENFILE = 23;
    static final int EMFILE = 24;
    static final int ENOSYS = 38;
    static final int ETIMEDOUT = 110;

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG;
    private static final ValueLayout PTR = ValueLayout.ADDRESS;
    private static final MemoryLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    /** Why the calls cannot be made in this JVM, or null when they can. */
    private static final String UNAVAILABLE;
    private static final Sys INSTANCE;

    static {
        String why = null;
        Sys s = null;
        String os = System.getProperty("os.name", "");
        String arch = arch();
        if (!os.startsWith("Linux")) {
            why = "not Linux (" + os + ")";
        } else if (!(arch.equals("amd64") || arch.equals("x86_64") || arch.equals("aarch64"))) {
            why = "struct layouts not known for " + arch + " (x86_64 and aarch64 only)";
        } else {
            try {
                s = new Sys();
            } catch (IllegalCallerException e) {
                why = "native access denied (--enable-native-access=org.jrdma.shm): " + e.getMessage();
            } catch (RuntimeException | LinkageError e) {
                why = "glibc symbols not found: " + e;
            }
        }
        UNAVAILABLE = why;
        INSTANCE = s;
    }

    final MethodHandle memfdCreate;
    final MethodHandle ftruncate;
    final MethodHandle mmap;
    final MethodHandle munmap;
    final MethodHandle open;
    final MethodHandle close;
    final MethodHandle lseek;
    final MethodHandle readlink;
    final MethodHandle processVmReadv;
    final MethodHandle processVmWritev;
    /** long syscall(long nr, void *uaddr, long op, long val, void *timeout, long uaddr2, long val3); may block. */
    final MethodHandle syscall6;
    /** The same, critical: for calls that never block (FUTEX_WAKE). */
    final MethodHandle syscall6Quick;
    /**
     * syscall(number, …) and poll without errno capture: a downcall that captures errno
     * allocates ~40 B per call until the JIT compiles its caller, and the progress thread's
     * calls (a few a second) never get that hot. For calls whose errno nobody needs.
     */
    final MethodHandle syscall6Bare;
    final MethodHandle pollBare;
    /** syscall(number, a, b) with long arguments (pidfd_open). */
    final MethodHandle syscall2;
    final MethodHandle poll;
    private final MethodHandle strerror;

    private Sys() {
        Linker linker = Linker.nativeLinker();
        SymbolLookup libc = linker.defaultLookup();
        Linker.Option errno = Linker.Option.captureCallState("errno");
        Linker.Option quick = Linker.Option.critical(false);
        memfdCreate = linker.downcallHandle(libc.findOrThrow("memfd_create"), FunctionDescriptor.of(INT, PTR, INT), errno);
        ftruncate = linker.downcallHandle(libc.findOrThrow("ftruncate"), FunctionDescriptor.of(INT, INT, LONG), errno);
        // void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
        mmap = linker.downcallHandle(libc.findOrThrow("mmap"),
                FunctionDescriptor.of(LONG, LONG, LONG, INT, INT, INT, LONG), errno);
        munmap = linker.downcallHandle(libc.findOrThrow("munmap"), FunctionDescriptor.of(INT, LONG, LONG), errno);
        // int open(const char *path, int flags, ...): mode passed (0) as the one variadic int
        open = linker.downcallHandle(libc.findOrThrow("open"), FunctionDescriptor.of(INT, PTR, INT, INT),
                Linker.Option.firstVariadicArg(2), errno);
        close = linker.downcallHandle(libc.findOrThrow("close"), FunctionDescriptor.of(INT, INT), errno, quick);
        lseek = linker.downcallHandle(libc.findOrThrow("lseek"), FunctionDescriptor.of(LONG, INT, LONG, INT), errno, quick);
        readlink = linker.downcallHandle(libc.findOrThrow("readlink"), FunctionDescriptor.of(LONG, PTR, PTR, LONG), errno);
        // ssize_t process_vm_readv(pid_t, const struct iovec *, unsigned long, const struct iovec *, unsigned long,
        // unsigned long flags): copies may be large, so not critical
        FunctionDescriptor vm = FunctionDescriptor.of(LONG, INT, PTR, LONG, PTR, LONG, LONG);
        processVmReadv = linker.downcallHandle(libc.findOrThrow("process_vm_readv"), vm, errno);
        processVmWritev = linker.downcallHandle(libc.findOrThrow("process_vm_writev"), vm, errno);
        // glibc's syscall() reads every argument as a long, so the ints are passed widened; the
        // word is an address argument so that its scope stays alive for the call
        FunctionDescriptor sc = FunctionDescriptor.of(LONG, LONG, PTR, LONG, LONG, PTR, LONG, LONG);
        syscall6 = linker.downcallHandle(libc.findOrThrow("syscall"), sc, Linker.Option.firstVariadicArg(1), errno);
        syscall6Quick = linker.downcallHandle(libc.findOrThrow("syscall"), sc, Linker.Option.firstVariadicArg(1),
                errno, quick);
        strerror = linker.downcallHandle(libc.findOrThrow("strerror"), FunctionDescriptor.of(PTR, INT));
        syscall6Bare = linker.downcallHandle(libc.findOrThrow("syscall"), sc, Linker.Option.firstVariadicArg(1));
        pollBare = linker.downcallHandle(libc.findOrThrow("poll"), FunctionDescriptor.of(INT, PTR, LONG, INT), quick);
        syscall2 = linker.downcallHandle(libc.findOrThrow("syscall"), FunctionDescriptor.of(LONG, LONG, LONG, LONG),
                Linker.Option.firstVariadicArg(1), errno);
        poll = linker.downcallHandle(libc.findOrThrow("poll"), FunctionDescriptor.of(INT, PTR, LONG, INT), errno, quick);
    }

    /** {@return os.arch, lower case} */
    static String arch() {
        return System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    }

    /** {@return the downcalls; throws a typed error naming {@code call} when this JVM cannot make them} */
    static Sys get(String call) {
        if (INSTANCE == null) {
            throw new VerbsException(Errno.EOPNOTSUPP, call + ": shared-memory system calls unavailable: " + UNAVAILABLE);
        }
        return INSTANCE;
    }

    /** {@return true when the downcalls are linked} */
    static boolean linked() {
        return INSTANCE != null;
    }

    /** {@return why the downcalls are not linked, or null} */
    static String unavailableReason() {
        return UNAVAILABLE;
    }

    /** {@return the errno the last call on this thread's scratch captured} */
    static int errno(MemorySegment state) {
        return (int) ERRNO.get(state, 0L);
    }

    /** {@return "errno 24 (Too many open files)"} */
    String describe(int errno) {
        String text;
        try {
            MemorySegment s = (MemorySegment) strerror.invokeExact(errno);
            text = s.equals(MemorySegment.NULL) ? "?" : s.reinterpret(256).getString(0);
        } catch (Throwable t) {
            text = "?";
        }
        return "errno " + errno + " (" + text + ")";
    }

    /** {@return a typed failure: "what: errno N (text)", with the nearest verbs Errno} */
    VerbsException fail(String what, int errno) {
        return new VerbsException(typed(errno), what + ": " + describe(errno));
    }

    /** {@return the verbs Errno with the same number, or the nearest one the enum has} */
    static Errno typed(int errno) {
        for (Errno e : Errno.values()) {
            if (e.value() == errno) {
                return e;
            }
        }
        return switch (errno) {
            case ESRCH -> Errno.ENOENT;
            case ENFILE, EMFILE -> Errno.ENOSPC;
            case ENOSYS -> Errno.EOPNOTSUPP;
            case EINTR -> Errno.EAGAIN;
            default -> Errno.EIO;
        };
    }

    /** {@return a throwable from a downcall as an unchecked exception} */
    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }

    /** A typed EINVAL for an argument the call refuses before reaching the kernel. */
    static VerbsException invalid(String message) {
        return new VerbsException(Errno.EINVAL, message);
    }

    /** {@return a pid as pid_t, or a typed EINVAL naming {@code call}} */
    static int pid(String call, long pid) {
        if (pid <= 0 || pid > Integer.MAX_VALUE) {
            throw invalid(call + ": pid " + pid + " out of range (1.." + Integer.MAX_VALUE + ")");
        }
        return (int) pid;
    }

    /** Checks that a segment can be handed to the kernel: native, its scope alive and this thread's to use. */
    static void checkNative(String call, String what, MemorySegment s) {
        if (s == null) {
            throw invalid(call + ": " + what + " is null");
        }
        if (!s.isNative()) {
            throw invalid(call + ": " + what + " is a heap segment; the kernel needs native memory");
        }
        if (!s.scope().isAlive()) {
            throw invalid(call + ": " + what + "'s arena is closed");
        }
        if (!s.isAccessibleBy(Thread.currentThread())) {
            throw invalid(call + ": " + what + " belongs to a confined arena of another thread");
        }
    }

    /** {@return this thread's scratch memory} */
    static Scratch scratch() {
        return SCRATCH.get();
    }

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    /**
     * One thread's reusable call memory: the errno capture, a timespec, two iovecs and a byte,
     * allocated once (an automatic arena frees it with the thread's last reference).
     */
    static final class Scratch {
        final MemorySegment state;
        final MemorySegment timespec;
        final MemorySegment localIov;
        final MemorySegment remoteIov;
        final MemorySegment oneByte;
        /** struct pollfd {int fd; short events; short revents;} */
        final MemorySegment pollfd;

        Scratch() {
            Arena arena = Arena.ofAuto();
            long cap = (CAPTURE.byteSize() + 15) & ~15L;
            MemorySegment all = arena.allocate(cap + 16 + 16 + 16 + 16 + 16, 16);
            state = all.asSlice(0, CAPTURE.byteSize());
            timespec = all.asSlice(cap, 16);
            localIov = all.asSlice(cap + 16, 16);
            remoteIov = all.asSlice(cap + 32, 16);
            oneByte = all.asSlice(cap + 48, 1);
            pollfd = all.asSlice(cap + 64, 8);
        }
    }
}
