package org.jrdma.bootstrap.tcp;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import org.jrdma.bootstrap.KeyFileException;

/**
 * The secret both sides of a {@link TcpSecurity.Psk} exchange hold. Its {@link #toString} never
 * shows it (OOB-16). Read from a file with {@link #load}, which refuses a file others may read.
 */
public final class PreSharedKey {
    /** 128 bits: anything shorter is a password, and the handshake's MACs would let it be guessed offline. */
    public static final int MIN_BYTES = 16;
    /** A key file is read whole; the cap keeps a wrong path (a log, a device) from filling the heap. */
    public static final int MAX_BYTES = 4096;

    private static final Set<PosixFilePermission> OTHERS = EnumSet.of(
            PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);

    private final byte[] key;

    private PreSharedKey(byte[] key) {
        this.key = key;
    }

    /**
     * A key given in code; copied.
     *
     * @param key {@value #MIN_BYTES} to {@value #MAX_BYTES} bytes
     * @return the key
     * @throws IllegalArgumentException if it is shorter or longer
     */
    public static PreSharedKey of(byte[] key) {
        if (key.length < MIN_BYTES || key.length > MAX_BYTES) {
            throw new IllegalArgumentException("a pre-shared key has " + MIN_BYTES + ".." + MAX_BYTES + " bytes, not " + key.length);
        }
        return new PreSharedKey(key.clone());
    }

    /**
     * The file's bytes, less one trailing newline (so {@code head -c 32 /dev/urandom | base64 > f}
     * works). Like ssh with a private key, a file that group or others may read or write is
     * refused: whoever reads the key can pass as either side.
     *
     * @param file the key file
     * @return the key
     * @throws org.jrdma.bootstrap.KeyFileException if the file is missing, unreadable, not private
     *     to its owner, or holds fewer than {@value #MIN_BYTES} or more than {@value #MAX_BYTES} bytes
     */
    public static PreSharedKey load(Path file) {
        byte[] bytes;
        try {
            PosixFileAttributeView posix = Files.getFileAttributeView(file, PosixFileAttributeView.class);
            if (posix != null) {
                Set<PosixFilePermission> perms = posix.readAttributes().permissions();
                perms.retainAll(OTHERS);
                if (!perms.isEmpty()) {
                    throw new KeyFileException(file, "permissions allow " + perms
                            + "; a pre-shared key must be private to its owner (chmod 600)");
                }
            }
            if (!Files.isRegularFile(file)) {
                throw new KeyFileException(file, "not a regular file");
            }
            long size = Files.size(file);
            if (size > MAX_BYTES + 2) {
                throw new KeyFileException(file, size + " bytes is more than a key (at most " + MAX_BYTES + ")");
            }
            bytes = Files.readAllBytes(file);
        } catch (java.nio.file.NoSuchFileException e) {
            // its message is the bare path, which said nothing ("cannot be read: /path")
            throw new KeyFileException(file, "no such file (create one: head -c 32 /dev/urandom | base64 > FILE; chmod 600 FILE)", e);
        } catch (java.nio.file.AccessDeniedException e) {
            throw new KeyFileException(file, "permission denied: this user cannot read it", e);
        } catch (IOException e) {
            throw new KeyFileException(file, "cannot be read: " + e.getMessage(), e);
        }
        int n = bytes.length;
        if (n > 0 && bytes[n - 1] == '\n') {
            n--;
            if (n > 0 && bytes[n - 1] == '\r') {
                n--;
            }
        }
        if (n < MIN_BYTES || n > MAX_BYTES) {
            throw new KeyFileException(file, "holds " + n + " key bytes; a pre-shared key has " + MIN_BYTES + ".." + MAX_BYTES);
        }
        byte[] key = Arrays.copyOf(bytes, n);
        Arrays.fill(bytes, (byte) 0);
        return new PreSharedKey(key);
    }

    /** The key bytes; package-private so only the handshake sees them. */
    byte[] bytes() {
        return key;
    }

    @Override
    public String toString() {
        return "PreSharedKey[" + key.length + " bytes]";
    }
}
