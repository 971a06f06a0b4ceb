package org.jrdma.bootstrap.tcp;

import java.util.Objects;
import javax.net.ssl.SSLContext;

/**
 * Whether and how a {@link TcpExchange} authenticates its peer. {@link #plain()} is the default
 * and keeps rc_pingpong's wire format; {@link Psk} and {@link Tls} speak their own and only to a
 * peer configured the same way (README "Authenticated exchange").
 */
public sealed interface TcpSecurity {
    /** No authentication: rc_pingpong's exchange, readable and forgeable by anyone on the path. */
    static TcpSecurity plain() {
        return Plain.INSTANCE;
    }

    static TcpSecurity psk(PreSharedKey key) {
        return new Psk(key);
    }

    /** TLS 1.3 with certificates on both sides; {@code context} from {@link TlsContexts#load}. */
    static TcpSecurity tls(SSLContext context) {
        return new Tls(context);
    }

    enum Plain implements TcpSecurity { INSTANCE }

    /** Mutual proof of a pre-shared key, then connection info sealed with AES-GCM (PskHandshake). */
    record Psk(PreSharedKey key) implements TcpSecurity {
        public Psk {
            Objects.requireNonNull(key, "key");
        }
    }

    /** Mutual TLS 1.3: the server requires a client certificate; both check the other's against their trust store. */
    record Tls(SSLContext context) implements TcpSecurity {
        public Tls {
            Objects.requireNonNull(context, "context");
        }
    }
}
