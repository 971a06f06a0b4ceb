package org.jrdma.ibv.ffi;

import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;

/** How a libibverbs failure becomes a {@link VerbsException}: the verb, the errno by name, what it means. */
public final class Native {
    private static final String[] NAMES = new String[134];

    static {
        String[][] known = {{"1", "EPERM", "operation not permitted"}, {"2", "ENOENT", "no such file or directory"},
            {"4", "EINTR", "interrupted system call"}, {"5", "EIO", "input/output error"},
            {"9", "EBADF", "bad file descriptor"}, {"11", "EAGAIN", "resource temporarily unavailable"},
            {"12", "ENOMEM", "cannot allocate memory"}, {"13", "EACCES", "permission denied"},
            {"14", "EFAULT", "bad address"}, {"16", "EBUSY", "device or resource busy"},
            {"17", "EEXIST", "file exists"}, {"19", "ENODEV", "no such device"},
            {"22", "EINVAL", "invalid argument"}, {"24", "EMFILE", "too many open files"},
            {"28", "ENOSPC", "no space left on device"}, {"38", "ENOSYS", "function not implemented"},
            {"71", "EPROTO", "protocol error"}, {"90", "EMSGSIZE", "message too long"},
            {"95", "EOPNOTSUPP", "operation not supported"}, {"98", "EADDRINUSE", "address already in use"},
            {"99", "EADDRNOTAVAIL", "cannot assign requested address"}, {"110", "ETIMEDOUT", "connection timed out"},
            {"111", "ECONNREFUSED", "connection refused"}};
        for (String[] k : known) {
            NAMES[Integer.parseInt(k[0])] = k[1] + " (" + k[2] + ")";
        }
    }

    private Native() {
    }

    /** {@code EINVAL (invalid argument)}, or {@code errno 123} for one without a name here. */
    public static String errnoText(int errno) {
        return errno > 0 && errno < NAMES.length && NAMES[errno] != null ? NAMES[errno] : "errno " + errno;
    }

    /** The {@link Errno} of a Linux errno; one the verbs API does not name becomes EIO (the text keeps the number). */
    public static Errno errnoOf(int errno) {
        for (Errno e : Errno.values()) {
            if (e.value() == errno) {
                return e;
            }
        }
        return errno == 38 ? Errno.EOPNOTSUPP : Errno.EIO;
    }

    /** {@code ibv_modify_qp INIT→RTR: EINVAL (invalid argument)}. */
    public static VerbsException failure(String verb, int errno) {
        return new VerbsException(errnoOf(errno), verb + ": " + errnoText(errno));
    }

    /**
     * The errno of an int-returning libibverbs call: libibverbs returns it (> 0), or -1 with errno
     * set, or (some providers) -errno.
     */
    public static int errnoOfReturn(int rc, java.lang.foreign.MemorySegment callState) {
        if (rc > 0) {
            return rc;
        }
        if (rc == -1 && callState != null) {
            int e = Ibv.errno(callState);
            return e == 0 ? 5 : e;
        }
        return -rc;
    }

    /** Throwables out of invokeExact: errors pass, the rest (none expected) wrapped. */
    public static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException("native call failed", t);
    }
}
