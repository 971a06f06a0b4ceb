package org.jrdma.bootstrap;

/**
 * The peer of an authenticated exchange (pre-shared key or TLS) did not prove who it is
 * (OOB-11, AUTH-01). Thrown before any connection info was sent or anything was allocated, and
 * its message names no capability (QPN, PSN, rkey, GID) and never the key itself (OOB-16).
 * The subclasses say why, so a caller can tell a misconfiguration from an attack.
 */
public class AuthenticationException extends BootstrapException {
    /**
     * An authentication failure.
     *
     * @param message what failed, without the key or any capability
     */
    public AuthenticationException(String message) {
        super(message);
    }

    /**
     * An authentication failure with its cause (a TLS handshake error, say).
     *
     * @param message what failed, without the key or any capability
     * @param cause the underlying failure
     */
    public AuthenticationException(String message, Throwable cause) {
        super(message, cause);
    }

    /** The peer holds a different pre-shared key (its key id differs from ours). */
    public static final class WrongKey extends AuthenticationException {
        /**
         * A key-id mismatch.
         *
         * @param message what failed
         */
        public WrongKey(String message) {
            super(message);
        }
    }

    /** A MAC or AEAD tag did not verify with the right key: the bytes were changed on the way. */
    public static final class BadMac extends AuthenticationException {
        /**
         * A tag that did not verify.
         *
         * @param message what failed
         */
        public BadMac(String message) {
            super(message);
        }
    }

    /** The peer's nonce was seen before: a recorded handshake is being replayed (OOB-10). */
    public static final class Replay extends AuthenticationException {
        /**
         * A replayed nonce.
         *
         * @param message what failed
         */
        public Replay(String message) {
            super(message);
        }
    }

    /** The peer speaks the exchange without authentication, or an older one (AUTH-02 downgrade). */
    public static final class Downgrade extends AuthenticationException {
        /**
         * A downgrade attempt.
         *
         * @param message what failed
         */
        public Downgrade(String message) {
            super(message);
        }
    }
}
