package org.jrdma.verbs;

/** The errno values verbs calls fail with, as libibverbs returns them (Linux numbering). */
public enum Errno {
    EPERM(1), ENOENT(2), EIO(5), EAGAIN(11), ENOMEM(12), EACCES(13), EFAULT(14), EBUSY(16),
    EEXIST(17), ENODEV(19), EINVAL(22), ENOSPC(28), EPROTO(71), EMSGSIZE(90), EOPNOTSUPP(95),
    EADDRINUSE(98), EADDRNOTAVAIL(99), ECONNREFUSED(111), ETIMEDOUT(110);

    private final int value;

    Errno(int value) {
        this.value = value;
    }

    /** The Linux errno number. */
    public int value() {
        return value;
    }
}
