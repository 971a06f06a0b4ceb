package org.jrdma.verbs;

/** The errno values verbs calls fail with, as libibverbs returns them (Linux numbering). */
public enum Errno {
    /** Operation not permitted, e.g. a controlled Q_Key on an ordinary QP. */
    EPERM(1),
    /** No such entry. */
    ENOENT(2),
    /** I/O error: the device or its transport failed. */
    EIO(5),
    /** Resource temporarily unavailable: try again. */
    EAGAIN(11),
    /** Out of memory or resources, including a full work queue at post time. */
    ENOMEM(12),
    /** Permission denied. */
    EACCES(13),
    /** Bad address: memory that cannot be reached or registered. */
    EFAULT(14),
    /** Resource in use, e.g. destroying a CQ or PD that a QP still uses. */
    EBUSY(16),
    /** The object already exists. */
    EEXIST(17),
    /** No such device, or no provider to offer one. */
    ENODEV(19),
    /** Invalid argument: a bad attribute, value, state or transition. */
    EINVAL(22),
    /** No space left: a table or limit is full. */
    ENOSPC(28),
    /** Protocol error on the wire. */
    EPROTO(71),
    /** Message too long for the QP, port or device limit. */
    EMSGSIZE(90),
    /** Operation not supported by this provider or QP type. */
    EOPNOTSUPP(95),
    /** Address already in use. */
    EADDRINUSE(98),
    /** Address not available on this host. */
    EADDRNOTAVAIL(99),
    /** Connection refused by the peer. */
    ECONNREFUSED(111),
    /** Timed out: a deadline passed with nothing to return. */
    ETIMEDOUT(110);

    private final int value;

    Errno(int value) {
        this.value = value;
    }

    /** {@return the Linux errno number} */
    public int value() {
        return value;
    }
}
