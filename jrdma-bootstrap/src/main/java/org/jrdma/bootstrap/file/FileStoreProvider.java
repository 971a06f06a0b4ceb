package org.jrdma.bootstrap.file;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jrdma.bootstrap.rendezvous.RendezvousStore;
import org.jrdma.bootstrap.rendezvous.RendezvousStoreProvider;
import org.jrdma.bootstrap.rendezvous.StoreOptions;
import org.jrdma.bootstrap.rendezvous.StoreUnavailableException;

/**
 * The rendezvous store in a shared directory, {@code file:///path}: for ranks on one host, or on
 * hosts that mount the same file system. Found by {@link java.util.ServiceLoader} as the
 * provider of scheme {@code file}. A directory has no TLS and no users: those options are
 * refused rather than ignored; who may read the directory is who may read the connection info.
 */
public final class FileStoreProvider implements RendezvousStoreProvider {
    /** For {@link java.util.ServiceLoader}. */
    public FileStoreProvider() {
    }

    @Override
    public String scheme() {
        return "file";
    }

    @Override
    public RendezvousStore open(URI address, StoreOptions options) {
        if (!"file".equalsIgnoreCase(address.getScheme())) {
            throw new IllegalArgumentException("not a file: URI: " + address);
        }
        if (options.caCert() != null || options.clientCert() != null || options.user() != null) {
            throw new IllegalArgumentException("a directory store has no TLS and no users; its security is the directory's"
                    + " permissions (" + address + ")");
        }
        Path dir;
        try {
            dir = Path.of(address);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a directory URI (file:///absolute/path): " + address, e);
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new StoreUnavailableException(address.toString(), "creating the directory", e);
        }
        return new FileStore(dir);
    }
}
