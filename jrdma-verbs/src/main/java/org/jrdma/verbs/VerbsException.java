package org.jrdma.verbs;

/**
 * A verbs call failed. Carries an errno-like code (what libibverbs would return) and a message
 * that names the cause, e.g. {@code modify_qp INIT→RTR: missing required attribute DEST_QPN}.
 */
public class VerbsException extends RuntimeException {
    private final Errno errno;

    public VerbsException(Errno errno, String message) {
        super(message);
        this.errno = errno;
    }

    public VerbsException(Errno errno, String message, Throwable cause) {
        super(message, cause);
        this.errno = errno;
    }

    public Errno errno() {
        return errno;
    }

    /** The message without the errno suffix that {@link #getMessage} adds. */
    public String reason() {
        return super.getMessage();
    }

    /** Shorthand for a provider that does not implement an operation. */
    public static VerbsException unsupported(String operation) {
        return new VerbsException(Errno.EOPNOTSUPP, operation + ": not supported by this provider");
    }

    @Override
    public String getMessage() {
        return super.getMessage() + " (" + errno + ")";
    }
}
