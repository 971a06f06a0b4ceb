package org.jrdma.bootstrap.rendezvous;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How to reach a store and how long a rank's claim lives.
 *
 * @param leaseTtl how long a rank's keys outlive it (etcd's lease TTL; the rank keeps the lease
 *     alive at a third of it): a rank that dies is named by the others within this time. 1 s or
 *     more (etcd rounds up to its minimum)
 * @param requestTimeout the deadline of one request to the store; positive
 * @param caCert PEM file of the CA that signed the store's certificate, or null for plain text
 *     (etcd: {@code https://} needs it, or the JDK's default trust store is used)
 * @param clientCert PEM certificate for mutual TLS, or null
 * @param clientKey PEM PKCS#8 key of {@code clientCert}, or null
 * @param user the store's user name (etcd's auth), or null
 * @param password that user's password, or null
 */
public record StoreOptions(Duration leaseTtl, Duration requestTimeout, Path caCert, Path clientCert, Path clientKey,
        String user, String password) {
    /** The lease TTL unless told otherwise: 5 s. */
    public static final Duration DEFAULT_LEASE_TTL = Duration.ofSeconds(5);
    /** One request's deadline unless told otherwise: 5 s. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(5);
    /** Plain text, no auth, the default TTL and request deadline. */
    public static final StoreOptions DEFAULTS = new StoreOptions(DEFAULT_LEASE_TTL, DEFAULT_REQUEST_TIMEOUT, null, null, null, null, null);

    /**
     * Checks the fields.
     *
     * @throws IllegalArgumentException if a duration is out of range, a client key comes without
     *     its certificate (or the reverse), or a password without a user (or the reverse)
     */
    public StoreOptions {
        if (leaseTtl == null || leaseTtl.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("lease TTL must be 1 s or more, not " + leaseTtl);
        }
        if (requestTimeout == null || requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("request timeout must be positive, not " + requestTimeout);
        }
        if ((clientCert == null) != (clientKey == null)) {
            throw new IllegalArgumentException("a client certificate and its key go together");
        }
        if ((user == null) != (password == null)) {
            throw new IllegalArgumentException("a user and a password go together");
        }
    }

    /**
     * These options with another lease TTL.
     *
     * @param ttl the TTL
     * @return new options
     */
    public StoreOptions withLeaseTtl(Duration ttl) {
        return new StoreOptions(ttl, requestTimeout, caCert, clientCert, clientKey, user, password);
    }

    /**
     * These options with another request deadline.
     *
     * @param timeout the deadline
     * @return new options
     */
    public StoreOptions withRequestTimeout(Duration timeout) {
        return new StoreOptions(leaseTtl, timeout, caCert, clientCert, clientKey, user, password);
    }

    /**
     * These options with TLS.
     *
     * @param ca the CA's PEM file, or null for the JDK's trust store
     * @param cert the client's PEM certificate for mutual TLS, or null
     * @param key the client's PEM key, or null
     * @return new options
     */
    public StoreOptions withTls(Path ca, Path cert, Path key) {
        return new StoreOptions(leaseTtl, requestTimeout, ca, cert, key, user, password);
    }

    /**
     * These options with the store's user/password auth.
     *
     * @param name the user
     * @param secret the password
     * @return new options
     */
    public StoreOptions withAuth(String name, String secret) {
        return new StoreOptions(leaseTtl, requestTimeout, caCert, clientCert, clientKey, name, secret);
    }

    /** No password in logs. */
    @Override
    public String toString() {
        return "StoreOptions[leaseTtl=" + leaseTtl + ", requestTimeout=" + requestTimeout + ", caCert=" + caCert
                + ", clientCert=" + clientCert + ", user=" + user + (password == null ? "" : ", password=***") + "]";
    }
}
