package org.jrdma.bootstrap;

import java.io.IOException;

/** The channel itself failed: connection refused or reset, bind failed, a file could not be written. */
public class ExchangeIoException extends BootstrapException {
    /**
     * A channel failure.
     *
     * @param message what was being done; the cause's message is appended
     * @param cause the I/O error
     */
    public ExchangeIoException(String message, IOException cause) {
        super(message + ": " + cause.getMessage(), cause);
    }
}
