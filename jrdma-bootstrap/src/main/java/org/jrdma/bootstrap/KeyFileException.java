package org.jrdma.bootstrap;

import java.nio.file.Path;

/**
 * A pre-shared key file we refuse to use: others may read it (as ssh refuses an unprotected
 * private key), it is missing, too short or too long. The message names the file, never its content.
 */
public class KeyFileException extends BootstrapException {
    /**
     * A refused key file.
     *
     * @param file the key file
     * @param problem why it is refused (never its content)
     */
    public KeyFileException(Path file, String problem) {
        super("key file " + file + ": " + problem);
    }

    /**
     * A key file that could not be read.
     *
     * @param file the key file
     * @param problem why it is refused (never its content)
     * @param cause the I/O error
     */
    public KeyFileException(Path file, String problem, Throwable cause) {
        super("key file " + file + ": " + problem, cause);
    }
}
