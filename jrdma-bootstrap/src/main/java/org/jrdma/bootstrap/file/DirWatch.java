package org.jrdma.bootstrap.file;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.concurrent.TimeUnit;

/**
 * Waits for a change in any of a few directories (inotify on Linux, through {@link WatchService}).
 * Each wait is also capped at {@link #SAFETY_NET_MILLIS}: file systems shared over a network (NFS)
 * do not report other hosts' changes, and there the cap is what notices them. On a local file
 * system the event comes first.
 */
final class DirWatch implements AutoCloseable {
    static final long SAFETY_NET_MILLIS = 250;
    private final WatchService service;

    DirWatch(Path... dirs) throws IOException {
        service = FileSystems.getDefault().newWatchService();
        try {
            for (Path d : dirs) {
                Files.createDirectories(d);
                d.register(service, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_DELETE,
                        StandardWatchEventKinds.ENTRY_MODIFY);
            }
        } catch (IOException | RuntimeException e) {
            service.close();
            throw e;
        }
    }

    /** Returns after a change or after {@code min(leftNanos, the safety net)}; the caller checks again. */
    void await(long leftNanos) throws IOException {
        try {
            WatchKey key = service.poll(Math.max(1, Math.min(TimeUnit.NANOSECONDS.toMillis(leftNanos), SAFETY_NET_MILLIS)),
                    TimeUnit.MILLISECONDS);
            while (key != null) {
                key.pollEvents();
                key.reset();
                key = service.poll();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting", e);
        }
    }

    @Override
    public void close() throws IOException {
        service.close();
    }
}
