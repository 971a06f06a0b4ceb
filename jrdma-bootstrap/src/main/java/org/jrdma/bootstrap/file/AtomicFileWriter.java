package org.jrdma.bootstrap.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * Publishes a file so a reader sees either nothing or all of it (OOB-12: partial writes): the
 * bytes go to a temporary file in the same directory, created 0600 where POSIX (it holds a QPN
 * and PSN), are fsynced, and the temporary file is renamed over the target with ATOMIC_MOVE.
 */
final class AtomicFileWriter {
    private static final Set<PosixFilePermission> OWNER_RW =
            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);

    private AtomicFileWriter() {
    }

    static void write(Path target, byte[] content) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Path tmp = Files.createTempFile(dir, "." + target.getFileName() + ".", ".tmp", attributes(dir));
        try {
            try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                ByteBuffer buf = ByteBuffer.wrap(content);
                while (buf.hasRemaining()) {
                    out.write(buf);
                }
                out.force(true);
            }
            // A rename is atomic and, on POSIX, replaces an existing target in one step.
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
    }

    private static FileAttribute<?>[] attributes(Path dir) {
        if (dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            return new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_RW)};
        }
        return new FileAttribute<?>[0];
    }
}
