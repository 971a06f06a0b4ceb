package org.jrdma.bootstrap;

import org.jrdma.verbs.QpState;

/**
 * Observes {@link RcConnector#connect}: the exchange's phases and then each QP transition,
 * stamped with {@link System#nanoTime()}. Tools print them; tests check their order.
 */
public interface ConnectListener extends ExchangeListener {
    ConnectListener NONE = new ConnectListener() {
        @Override
        public void onEvent(ExchangeEvent event) {
        }
    };

    /** The QP was created (in RESET) and the local info chosen. */
    default void onLocalInfo(ConnInfo local, long nanoTime) {
    }

    /** The peer's info arrived and the channel is closed. */
    default void onRemoteInfo(ConnInfo remote, long nanoTime) {
    }

    /** The QP reached {@code state}. */
    default void onQpState(QpState state, long nanoTime) {
    }
}
