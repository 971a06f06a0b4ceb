package org.jrdma.cm;

/** A CM call failed; {@link #error()} says how, the message says what and what to do. */
public class CmException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** How the call failed. */
    private final CmError error;

    /**
     * A failed CM call.
     *
     * @param error how it failed
     * @param message what failed and what to do
     */
    public CmException(CmError error, String message) {
        super(message);
        this.error = error;
    }

    /**
     * A failed CM call, with its cause.
     *
     * @param error how it failed
     * @param message what failed and what to do
     * @param cause the underlying failure
     */
    public CmException(CmError error, String message, Throwable cause) {
        super(message, cause);
        this.error = error;
    }

    /**
     * How the call failed.
     *
     * @return the error kind, with its errno
     */
    public CmError error() {
        return error;
    }

    @Override
    public String getMessage() {
        return super.getMessage() + " (" + error + ", errno " + error.errno() + ")";
    }
}
