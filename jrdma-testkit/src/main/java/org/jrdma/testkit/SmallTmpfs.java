package org.jrdma.testkit;

import static org.junit.jupiter.api.Assumptions.abort;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A tiny tmpfs the test mounts for itself — the way to meet a full or read-only filesystem for
 * real. Mounting needs root (and a kernel that lets this process mount); otherwise the test is
 * skipped with the reason. {@link #close()} unmounts it and removes the mount point.
 */
public final class SmallTmpfs implements AutoCloseable {
    /** The filesystem's size: room for a few pages only. */
    public static final String SIZE = "64k";
    private static final String FILLER = "filler";

    private final Path dir;

    private SmallTmpfs(Path dir) {
        this.dir = dir;
    }

    /**
     * A fresh 64 KiB tmpfs on a new directory under the temp directory, mounted with {@code extraOptions} too ("" or "ro").
     *
     * @param purpose what the test needs it for, in the skip message
     * @param extraOptions more mount options: "" or "ro"
     * @return the mounted filesystem
     */
    public static SmallTmpfs mount(String purpose, String extraOptions) {
        if (!Host.isRoot()) {
            abort("skipped: " + purpose + " needs a small tmpfs, and mounting one needs root");
        }
        Path dir;
        try {
            dir = Files.createTempDirectory("jrdma-tmpfs-");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        // mode 0700: owner-only, as a stats directory must be (a tmpfs root is 1777 by default)
        String options = "size=" + SIZE + ",mode=0700" + (extraOptions.isEmpty() ? "" : "," + extraOptions);
        String failure = run(List.of("mount", "-t", "tmpfs", "-o", options, "tmpfs", dir.toString()));
        if (failure != null) {
            deleteQuietly(dir);
            abort("skipped: " + purpose + ": cannot mount a tmpfs here (" + failure + ")");
        }
        return new SmallTmpfs(dir);
    }

    /**
     * A fresh 64 KiB tmpfs, filled up to its last byte: every write that needs a new page fails with ENOSPC.
     *
     * @param purpose what the test needs it for, in the skip message
     * @return the mounted, full filesystem
     */
    public static SmallTmpfs full(String purpose) {
        SmallTmpfs fs = mount(purpose, "");
        try {
            fs.fill();
        } catch (RuntimeException | Error e) {
            fs.close();
            throw e;
        }
        return fs;
    }

    /**
     * The mount point.
     *
     * @return its path
     */
    public Path dir() {
        return dir;
    }

    /** Writes a filler file until the filesystem says it is full. */
    public void fill() {
        byte[] page = new byte[4096];
        try (OutputStream out = Files.newOutputStream(dir.resolve(FILLER + "-" + System.nanoTime()))) {
            for (int i = 0; i < 1 << 20; i++) { // far more than fits: the loop ends in ENOSPC
                out.write(page);
                out.flush();
            }
        } catch (IOException full) {
            return; // "No space left on device": what we want
        }
        throw new IllegalStateException(dir + " did not fill up");
    }

    /**
     * The files the code under test left in the filesystem (the filler excluded).
     *
     * @return their names, sorted
     */
    public List<String> leftovers() {
        try (var s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(FILLER)).sorted().toList();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Makes room again: removes the filler. */
    public void drain() {
        try (var s = Files.list(dir)) {
            for (Path p : s.filter(p -> p.getFileName().toString().startsWith(FILLER)).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        String failure = run(List.of("umount", dir.toString()));
        if (failure != null) {
            run(List.of("umount", "-l", dir.toString())); // something still holds a file: detach it
        }
        deleteQuietly(dir);
    }

    private static String run(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return String.join(" ", command) + " did not finish";
            }
            return p.exitValue() == 0 ? null : String.join(" ", command) + ": " + out;
        } catch (IOException e) {
            return String.join(" ", command) + ": " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // a temp directory left over is harmless
        }
    }
}
