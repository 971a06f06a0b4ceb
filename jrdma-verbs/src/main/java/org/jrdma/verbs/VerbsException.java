package org.jrdma.verbs;

/**
 * A verbs call failed. Carries an errno-like code (what libibverbs would return) and a message
 * that names the cause, e.g. {@code modify_qp INIT→RTR: missing required attribute DEST_QPN}.
 */
public class VerbsException extends RuntimeException {
    /** The errno the call failed with. */
    private final Errno errno;

    /**
     * A failure with its errno and cause text.
     *
     * @param errno   what libibverbs would return
     * @param message what failed and why, naming the verb (the errno is appended by {@link #getMessage})
     */
    public VerbsException(Errno errno, String message) {
        super(message);
        this.errno = errno;
    }

    /**
     * A failure with its errno, cause text and underlying exception.
     *
     * @param errno   what libibverbs would return
     * @param message what failed and why, naming the verb
     * @param cause   the exception that caused it, or null
     */
    public VerbsException(Errno errno, String message, Throwable cause) {
        super(message, cause);
        this.errno = errno;
    }

    /** {@return the errno the call failed with} */
    public Errno errno() {
        return errno;
    }

    /** {@return the message without the errno suffix that {@link #getMessage} adds} */
    public String reason() {
        return super.getMessage();
    }

    /**
     * Shorthand for a provider that does not implement an operation.
     *
     * @param operation the verb, e.g. {@code create_ah}
     * @return an EOPNOTSUPP failure naming it
     */
    public static VerbsException unsupported(String operation) {
        return new VerbsException(Errno.EOPNOTSUPP, operation + ": not supported by this provider");
    }

    /**
     * {@return the message with the errno appended, e.g. {@code create_ah: not supported by this provider
     * (EOPNOTSUPP)}}
     */
    @Override
    public String getMessage() {
        return super.getMessage() + " (" + errno + ")";
    }
}
