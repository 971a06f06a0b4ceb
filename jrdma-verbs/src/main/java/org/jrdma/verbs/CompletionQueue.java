package org.jrdma.verbs;

/** {@code struct ibv_cq}: where completions of the work requests of its QPs land, oldest first. */
public interface CompletionQueue extends AutoCloseable {
    /** {@return the number of entries granted (≥ the number asked for)} */
    int capacity();

    /** {@return the completion channel events go to, or null} */
    CompletionChannel channel();

    /**
     * ibv_poll_cq: moves up to {@code wc.length} completions into {@code wc}, oldest first, and
     * returns how many. Never blocks and allocates nothing.
     *
     * @param wc caller-owned entries to fill
     * @return how many entries were filled, 0 when the CQ is empty
     */
    default int poll(WorkCompletion[] wc) {
        return poll(wc, wc.length);
    }

    /**
     * ibv_poll_cq with {@code num_entries}: as {@link #poll(WorkCompletion[])}, at most {@code max}.
     *
     * @param wc  caller-owned entries to fill, from index 0
     * @param max the most to take (no more than {@code wc.length} are taken)
     * @return how many entries were filled, 0 when the CQ is empty
     */
    int poll(WorkCompletion[] wc, int max);

    /**
     * ibv_req_notify_cq: arms the CQ so that the next completion (with {@code solicitedOnly},
     * the next solicited or error completion) raises one event on the channel.
     *
     * @param solicitedOnly true to wake only for solicited (and error) completions
     * @throws VerbsException EINVAL when the CQ is closed (the soft provider also when it has no channel)
     */
    void requestNotify(boolean solicitedOnly);

    /**
     * ibv_ack_cq_events: acknowledges events {@link CompletionChannel#getEvent} returned for this CQ.
     *
     * @param n how many events to acknowledge
     * @throws VerbsException EINVAL when {@code n} is negative or more than are unacknowledged
     */
    void ackEvents(int n);

    /** ibv_destroy_cq: refused with EBUSY while a QP uses it. */
    @Override
    void close();
}
