package org.jrdma.verbs;

import java.time.Duration;

/** {@code struct ibv_comp_channel}: where armed CQs announce completions. */
public interface CompletionChannel extends AutoCloseable {
    /**
     * ibv_get_cq_event with a deadline: waits until an armed CQ of this channel has a
     * completion event and returns it; throws {@link Errno#ETIMEDOUT} when the deadline passes.
     * Each returned event must be acknowledged with {@link CompletionQueue#ackEvents(int)}.
     *
     * @param timeout how long to wait at most
     * @return the CQ that raised the event; it is disarmed until {@link CompletionQueue#requestNotify} again
     * @throws VerbsException ETIMEDOUT when no event came in time
     */
    CompletionQueue getEvent(Duration timeout);

    /** ibv_destroy_comp_channel. */
    @Override
    void close();
}
