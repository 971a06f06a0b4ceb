package org.jrdma.bootstrap.rendezvous;

import org.jrdma.bootstrap.BootstrapException;

/** The rendezvous failed: the store could not be reached or answered, or ranks are missing. */
public class RendezvousException extends BootstrapException {
    /**
     * A failure with a message.
     *
     * @param message what went wrong, naming the store
     */
    public RendezvousException(String message) {
        super(message);
    }

    /**
     * A failure with its cause.
     *
     * @param message what went wrong, naming the store
     * @param cause the store client's error
     */
    public RendezvousException(String message, Throwable cause) {
        super(message, cause);
    }
}
