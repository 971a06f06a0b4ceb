package org.jrdma.bootstrap.file;

import java.nio.file.Path;
import org.jrdma.bootstrap.BootstrapException;

/**
 * The peer's file is not something we read connection info from: a symlink (OOB-12, O_NOFOLLOW),
 * not a regular file, or readable/writable by group or others (it holds capabilities).
 */
public class UnsafePeerFileException extends BootstrapException {
    /** The refused file. */
    private final Path path;

    /**
     * A refused peer file.
     *
     * @param path the file
     * @param problem why it is refused
     */
    public UnsafePeerFileException(Path path, String problem) {
        super("refusing peer file " + path + ": " + problem);
        this.path = path;
    }

    /**
     * A refused peer file, with the error that showed it.
     *
     * @param path the file
     * @param problem why it is refused
     * @param cause the underlying failure
     */
    public UnsafePeerFileException(Path path, String problem, Throwable cause) {
        super("refusing peer file " + path + ": " + problem, cause);
        this.path = path;
    }

    /**
     * The refused file.
     *
     * @return its path
     */
    public Path path() {
        return path;
    }
}
