package org.jrdma.bootstrap.tcp;

import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.jrdma.bootstrap.KeyFileException;

/**
 * Builds the TLS 1.3 context of a {@link TcpSecurity.Tls} exchange from a key store (our
 * certificate and private key) and a trust store (the certificates we accept from the peer),
 * in any format {@link KeyStore#getInstance(java.io.File, char[])} detects (PKCS#12, JKS).
 * Peers are identified by the trust store alone, not by host name: the exchange is between
 * two configured endpoints, often by IP address.
 */
public final class TlsContexts {
    private TlsContexts() {
    }

    /**
     * A TLS 1.3 context with our certificate and key from {@code keyStore} and the peer
     * certificates we accept from {@code trustStore}.
     *
     * @param keyStore a PKCS#12 or JKS file with our certificate and private key
     * @param keyStorePassword its password (also the key's)
     * @param trustStore a PKCS#12 or JKS file with the certificates we accept
     * @param trustStorePassword its password
     * @return the context
     * @throws org.jrdma.bootstrap.KeyFileException if a store cannot be read or used
     */
    public static SSLContext load(Path keyStore, char[] keyStorePassword, Path trustStore, char[] trustStorePassword) {
        try {
            KeyStore keys = KeyStore.getInstance(keyStore.toFile(), keyStorePassword);
            KeyStore trusted = KeyStore.getInstance(trustStore.toFile(), trustStorePassword);
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keys, keyStorePassword);
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trusted);
            SSLContext context = SSLContext.getInstance("TLSv1.3");
            context.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new KeyFileException(keyStore, "key store " + keyStore + " or trust store " + trustStore
                    + " cannot be used: " + e.getMessage(), e);
        }
    }
}
