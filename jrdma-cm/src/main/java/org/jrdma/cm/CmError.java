package org.jrdma.cm;

/** What went wrong in a CM call, with the errno librdmacm would return (Linux numbering). */
public enum CmError {
    /** A bad argument or a call in the wrong state (EINVAL). */
    INVALID_ARGUMENT(22),
    /** The (address, port) is taken by another id (EADDRINUSE). */
    ADDRESS_IN_USE(98),
    /** No local soft device has that address (EADDRNOTAVAIL). */
    ADDRESS_NOT_AVAILABLE(99),
    /** No device can reach the destination (ENETUNREACH). */
    NETWORK_UNREACHABLE(101),
    /** A deadline passed (ETIMEDOUT). */
    TIMED_OUT(110),
    /** The peer refused (ECONNREFUSED). */
    CONNECTION_REFUSED(111),
    /** Private data longer than the message can carry (librdmacm returns EINVAL for it too). */
    PRIVATE_DATA_TOO_LONG(22),
    /** No device, or the device went away (ENODEV). */
    NO_DEVICE(19),
    /** The id or channel is closed (EBADF). */
    CLOSED(9),
    /** A verbs call failed underneath (EIO); the cause says which. */
    VERBS(5);

    private final int errno;

    CmError(int errno) {
        this.errno = errno;
    }

    /**
     * The Linux errno librdmacm reports for this kind.
     *
     * @return the errno (positive)
     */
    public int errno() {
        return errno;
    }
}
