package org.jrdma.soft.engine;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Trouble with a file a device writes beside its work — the shared counters, a pcap. Such a
 * file is a convenience: when its directory is full, missing or read-only the device works on
 * without it and says so once per process and directory (not per device opened, never per
 * packet), naming the path and the operating system's reason.
 */
public final class FileTrouble {
    private static final Set<String> SAID = ConcurrentHashMap.newKeySet();

    private FileTrouble() {
    }

    /** Logs {@code line} as a warning unless a warning with the same {@code key} was logged before; true if logged. */
    public static boolean warnOnce(System.Logger log, String key, String line) {
        if (!SAID.add(key)) {
            return false;
        }
        log.log(Level.WARNING, line);
        return true;
    }

    /**
     * The operating system's reason for {@code e}, in its words ("No space left on device",
     * "Read-only file system"): java.nio's exceptions for a missing file or a refused access
     * carry only the path, so those are named here.
     */
    public static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "No such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "Permission denied";
        }
        if (e instanceof java.nio.file.FileAlreadyExistsException) {
            return "File exists";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
