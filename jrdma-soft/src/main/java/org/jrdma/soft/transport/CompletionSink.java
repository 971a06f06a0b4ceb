package org.jrdma.soft.transport;

import org.jrdma.verbs.WorkCompletion;

/** Where a QP's completions go (a CQ); claim a slot, fill it, commit it. */
public interface CompletionSink {
    /** A cleared slot to fill, or null when the queue is full (an overflow). */
    WorkCompletion claim();

    /** Publishes the claimed slot; {@code solicited} fires a solicited-only arming. */
    void commit(boolean solicited);
}
