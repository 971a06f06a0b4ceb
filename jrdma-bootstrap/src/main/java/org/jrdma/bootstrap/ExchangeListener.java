package org.jrdma.bootstrap;

/**
 * Observes the phases of an exchange. Called on the exchanging thread; it should be quick and
 * must not throw (a throw aborts the exchange, which still closes its channel).
 */
@FunctionalInterface
public interface ExchangeListener {
    ExchangeListener NONE = event -> { };

    void onEvent(ExchangeEvent event);

    /** Passes what a client that retries says ({@link ExchangeEvent.Phase#RETRYING}'s detail) to {@code sink}; nothing else. */
    static ExchangeListener retrying(java.util.function.Consumer<String> sink) {
        return event -> {
            if (event.phase() == ExchangeEvent.Phase.RETRYING) {
                sink.accept(event.detail());
            }
        };
    }

    /** Stamps and delivers an event now. */
    default void emit(ExchangeEvent.Phase phase, String detail) {
        onEvent(new ExchangeEvent(phase, System.nanoTime(), detail));
    }
}
