package org.jrdma.bootstrap;

/**
 * One phase of an exchange, stamped with {@link System#nanoTime()} when it happened, so a tool
 * can print the phases and a test can prove the channel was closed before the data phase.
 *
 * @param phase    what happened
 * @param nanoTime {@code System.nanoTime()} at that moment
 * @param detail   a short human text (peer address, byte count); never capabilities
 */
public record ExchangeEvent(Phase phase, long nanoTime, String detail) {
    /** The phases of an exchange, in the order they happen. */
    public enum Phase {
        /** A TCP server is bound and waits for its one peer; detail is the local address. */
        LISTENING,
        /**
         * A TCP client found nobody listening and will try again until its deadline: said once,
         * at the first refusal; detail says where and until when.
         */
        RETRYING,
        /** The channel to the peer is up; detail is the peer address. */
        CONNECTED,
        /** The local message is out (written, or renamed into place). */
        SENT,
        /** The peer's message arrived and is valid. */
        RECEIVED,
        /** Every socket or file handle of the exchange is closed; emitted on success and on failure. */
        CLOSED
    }
}
