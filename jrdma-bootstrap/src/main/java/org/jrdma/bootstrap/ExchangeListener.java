package org.jrdma.bootstrap;

/**
 * Observes the phases of an exchange. Called on the exchanging thread; it should be quick and
 * must not throw (a throw aborts the exchange, which still closes its channel).
 */
@FunctionalInterface
public interface ExchangeListener {
    /** A listener that ignores everything. */
    ExchangeListener NONE = event -> { };

    /**
     * Called at each phase of the exchange.
     *
     * @param event the phase, its time and detail
     */
    void onEvent(ExchangeEvent event);

    /**
     * Passes what a client that retries says ({@link ExchangeEvent.Phase#RETRYING}'s detail) to
     * {@code sink}; nothing else.
     *
     * @param sink receives each retry's detail
     * @return the listener
     */
    static ExchangeListener retrying(java.util.function.Consumer<String> sink) {
        return event -> {
            if (event.phase() == ExchangeEvent.Phase.RETRYING) {
                sink.accept(event.detail());
            }
        };
    }

    /**
     * Stamps and delivers an event now.
     *
     * @param phase the phase
     * @param detail what to say about it
     */
    default void emit(ExchangeEvent.Phase phase, String detail) {
        onEvent(new ExchangeEvent(phase, System.nanoTime(), detail));
    }
}
