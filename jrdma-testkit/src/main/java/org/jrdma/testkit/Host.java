package org.jrdma.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Facts about the machine a test runs on. */
public final class Host {
    private Host() {
    }

    /**
     * Whether this process runs with effective uid 0 (Linux; false elsewhere).
     *
     * @return true for root
     */
    public static boolean isRoot() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    return line.substring(4).strip().split("\\s+")[1].equals("0"); // the effective uid
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return false;
    }
}
