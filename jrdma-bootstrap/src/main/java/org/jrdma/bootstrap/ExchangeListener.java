package org.jrdma.bootstrap;

/**
 * Observes the phases of an exchange. Called on the exchanging thread; it should be quick and
 * must not throw (a throw aborts the exchange, which still closes its channel).
 */
@FunctionalInterface
public interface ExchangeListener {
    ExchangeListener NONE = event -> { };

    void onEvent(ExchangeEvent event);

    /** Stamps and delivers an event now. */
    default void emit(ExchangeEvent.Phase phase, String detail) {
        onEvent(new ExchangeEvent(phase, System.nanoTime(), detail));
    }
}
