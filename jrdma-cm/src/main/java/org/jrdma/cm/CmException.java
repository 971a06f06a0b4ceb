package org.jrdma.cm;

/** A CM call failed; {@link #error()} says how, the message says what and what to do. */
public class CmException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final CmError error;

    public CmException(CmError error, String message) {
        super(message);
        this.error = error;
    }

    public CmException(CmError error, String message, Throwable cause) {
        super(message, cause);
        this.error = error;
    }

    public CmError error() {
        return error;
    }

    @Override
    public String getMessage() {
        return super.getMessage() + " (" + error + ", errno " + error.errno() + ")";
    }
}
