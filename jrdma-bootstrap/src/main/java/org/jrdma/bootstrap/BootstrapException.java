package org.jrdma.bootstrap;

/**
 * The out-of-band exchange failed. Unchecked, like {@code VerbsException}: a bootstrap is called
 * from lambdas and helpers (connect-in-one-call, tools) where a checked exception would only be
 * wrapped, and every subclass is specific enough to be caught on purpose.
 *
 * <p>Messages never carry rkeys or more than {@link Excerpt#MAX_BYTES} bytes of peer input
 * (OOB-16); PSNs may appear, as rc_pingpong prints them.
 */
public abstract class BootstrapException extends RuntimeException {
    /**
     * A bootstrap failure.
     *
     * @param message what failed
     */
    protected BootstrapException(String message) {
        super(message);
    }

    /**
     * A bootstrap failure with its cause.
     *
     * @param message what failed
     * @param cause the underlying failure
     */
    protected BootstrapException(String message, Throwable cause) {
        super(message, cause);
    }
}
