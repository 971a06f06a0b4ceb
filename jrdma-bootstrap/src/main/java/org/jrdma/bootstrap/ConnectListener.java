package org.jrdma.bootstrap;

import org.jrdma.verbs.QpState;

/**
 * Observes {@link RcConnector#connect}: the exchange's phases and then each QP transition,
 * stamped with {@link System#nanoTime()}. Tools print them; tests check their order.
 */
public interface ConnectListener extends ExchangeListener {
    /** A listener that ignores everything. */
    ConnectListener NONE = new ConnectListener() {
        @Override
        public void onEvent(ExchangeEvent event) {
        }
    };

    /**
     * The QP was created (in RESET) and the local info chosen.
     *
     * @param local the info this side sends
     * @param nanoTime when, by {@link System#nanoTime()}
     */
    default void onLocalInfo(ConnInfo local, long nanoTime) {
    }

    /**
     * The peer's info arrived and the channel is closed.
     *
     * @param remote the info the peer sent
     * @param nanoTime when, by {@link System#nanoTime()}
     */
    default void onRemoteInfo(ConnInfo remote, long nanoTime) {
    }

    /**
     * The QP reached {@code state}.
     *
     * @param state the state after an {@code ibv_modify_qp}
     * @param nanoTime when, by {@link System#nanoTime()}
     */
    default void onQpState(QpState state, long nanoTime) {
    }
}
