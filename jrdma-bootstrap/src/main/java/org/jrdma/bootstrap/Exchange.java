package org.jrdma.bootstrap;

/**
 * Gives the local {@link ConnInfo} to the peer and returns the peer's, over some out-of-band
 * channel (TCP, a shared directory, static configuration). The channel is closed before this
 * returns, on success and on failure (DESIGN: "the socket is closed before the data phase").
 * An instance is good for one exchange.
 */
public interface Exchange {
    /**
     * Sends {@code local} to the peer and returns the peer's info, closing the channel either way.
     *
     * @param local this side's connection info
     * @param listener observes the exchange's phases
     * @return the peer's validated connection info
     * @throws BootstrapException when the channel, the deadline or the peer's message fails
     */
    ConnInfo exchange(ConnInfo local, ExchangeListener listener);

    /**
     * As {@link #exchange(ConnInfo, ExchangeListener)} with no listener.
     *
     * @param local this side's connection info
     * @return the peer's validated connection info
     * @throws BootstrapException when the channel, the deadline or the peer's message fails
     */
    default ConnInfo exchange(ConnInfo local) {
        return exchange(local, ExchangeListener.NONE);
    }
}
