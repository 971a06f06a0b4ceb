package org.jrdma.bootstrap.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import org.jrdma.bootstrap.ConnInfoCodec;
import org.jrdma.bootstrap.MalformedMessageException;

/**
 * Reads a peer's file without trusting it: never through a symlink (lstat first, then open with
 * O_NOFOLLOW so a swap in between fails too, OOB-12), only a regular file, only 0600-like
 * permissions, and never more than the codec's fixed size into a buffer allocated up front.
 */
final class PeerFileReader {
    private static final Set<PosixFilePermission> NOT_OWNER = EnumSet.of(
            PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE,
            PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    private PeerFileReader() {
    }

    /** The file's bytes, or {@code null} when it does not exist yet. */
    static byte[] readIfPresent(Path path, ConnInfoCodec codec) throws IOException {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return null;
        }
        if (attributes.isSymbolicLink()) {
            throw new UnsafePeerFileException(path, "it is a symbolic link");
        }
        if (!attributes.isRegularFile()) {
            throw new UnsafePeerFileException(path, "it is not a regular file");
        }
        checkPermissions(path);
        if (attributes.size() != codec.size()) {
            throw new MalformedMessageException("size", "peer file holds " + attributes.size()
                    + " bytes, a " + codec.name() + " message is " + codec.size());
        }
        byte[] content = new byte[codec.size()];
        try (SeekableByteChannel in = open(path)) {
            ByteBuffer buf = ByteBuffer.wrap(content);
            while (buf.hasRemaining() && in.read(buf) >= 0) {
                // loop over short reads; the size was checked above
            }
            if (buf.hasRemaining() || in.read(ByteBuffer.allocate(1)) > 0) {
                throw new MalformedMessageException("size", "peer file changed size while being read");
            }
        }
        return content;
    }

    private static SeekableByteChannel open(Path path) throws IOException {
        try {
            return Files.newByteChannel(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            // ELOOP: it became a symlink between the lstat and the open.
            if (Files.isSymbolicLink(path)) {
                throw new UnsafePeerFileException(path, "it is a symbolic link", e);
            }
            throw e;
        }
    }

    /**
     * We write 0600 and expect the same: a file others may write could have been tampered
     * with, and one others may read has leaked a capability (OOB-12). Both sides run as one user.
     */
    private static void checkPermissions(Path path) throws IOException {
        if (!path.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            return;
        }
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS);
        Set<PosixFilePermission> extra = EnumSet.copyOf(NOT_OWNER);
        extra.retainAll(permissions);
        if (!extra.isEmpty()) {
            throw new UnsafePeerFileException(path, "group or others have access (" + extra
                    + "); the file holds connection capabilities and must be 0600");
        }
    }
}
