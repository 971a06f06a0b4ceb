package org.jrdma.bootstrap;

/**
 * An exchange that can prove who the peer is before anything about us exists: {@link RcConnector}
 * calls {@link #authenticate} first and creates the QP only once it returned, so a peer with the
 * wrong key or certificate costs no QP, no MR and learns no QPN, PSN or GID (OOB-11, AUTH-01).
 */
public interface AuthenticatingExchange extends Exchange {
    /**
     * Whether {@link #authenticate} really authenticates.
     *
     * @return true for a pre-shared-key or TLS exchange; false for the plain exchange, which then
     *     runs as before
     */
    boolean authenticates();

    /**
     * Opens the channel and authenticates the peer; the returned session swaps the connection
     * info over the authenticated channel and must be closed.
     *
     * @param listener observes the exchange's phases
     * @return the authenticated session, good for one swap
     * @throws AuthenticationException when the peer is not who it must be; the channel is closed
     */
    Session authenticate(ExchangeListener listener);

    /**
     * An authenticated channel, good for one swap. It is a {@link RcConnector.PeerFirstExchange}
     * so the server can take its QP to RTS before its own info leaves (rc_pingpong's order).
     */
    interface Session extends RcConnector.PeerFirstExchange, AutoCloseable {
        /** Closes the channel; idempotent. */
        @Override
        void close();

        /**
         * The peer's address as the channel has it, known once authenticated: a server that
         * picks its device by where the client is (the tools' auto and shm) asks it before it
         * opens one.
         *
         * @return the peer's address, or null when the channel cannot say
         */
        default java.net.InetAddress peerAddress() {
            return null;
        }
    }
}
