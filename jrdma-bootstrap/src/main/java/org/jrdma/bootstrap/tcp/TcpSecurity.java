package org.jrdma.bootstrap.tcp;

import java.util.Objects;
import javax.net.ssl.SSLContext;

/**
 * Whether and how a {@link TcpExchange} authenticates its peer. {@link #plain()} is the default
 * and keeps rc_pingpong's wire format; {@link Psk} and {@link Tls} speak their own and only to a
 * peer configured the same way (README "Authenticated exchange").
 */
public sealed interface TcpSecurity {
    /**
     * No authentication: rc_pingpong's exchange, readable and forgeable by anyone on the path.
     *
     * @return the plain mode
     */
    static TcpSecurity plain() {
        return Plain.INSTANCE;
    }

    /**
     * Mutual proof of a pre-shared key, then the connection info sealed with AES-GCM.
     *
     * @param key the key both sides hold
     * @return the pre-shared-key mode
     */
    static TcpSecurity psk(PreSharedKey key) {
        return new Psk(key);
    }

    /**
     * TLS 1.3 with certificates on both sides; {@code context} from {@link TlsContexts#load}.
     *
     * @param context a TLS 1.3 context with our key and the peer's trusted certificates
     * @return the TLS mode
     */
    static TcpSecurity tls(SSLContext context) {
        return new Tls(context);
    }

    /** No authentication; see {@link #plain()}. */
    enum Plain implements TcpSecurity {
        /** The one plain mode. */
        INSTANCE
    }

    /**
     * Mutual proof of a pre-shared key, then connection info sealed with AES-GCM (PskHandshake).
     *
     * @param key the key both sides hold
     */
    record Psk(PreSharedKey key) implements TcpSecurity {
        /**
         * Checks the key is present.
         *
         * @throws NullPointerException if {@code key} is null
         */
        public Psk {
            Objects.requireNonNull(key, "key");
        }
    }

    /**
     * Mutual TLS 1.3: the server requires a client certificate; both check the other's against
     * their trust store.
     *
     * @param context the TLS 1.3 context
     */
    record Tls(SSLContext context) implements TcpSecurity {
        /**
         * Checks the context is present.
         *
         * @throws NullPointerException if {@code context} is null
         */
        public Tls {
            Objects.requireNonNull(context, "context");
        }
    }
}
