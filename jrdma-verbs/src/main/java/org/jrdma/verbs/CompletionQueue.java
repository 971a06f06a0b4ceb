package org.jrdma.verbs;

/** {@code struct ibv_cq}. */
public interface CompletionQueue extends AutoCloseable {
    /** The number of entries granted (≥ the number asked for). */
    int capacity();

    /** The completion channel events go to, or null. */
    CompletionChannel channel();

    /**
     * ibv_poll_cq: moves up to {@code wc.length} completions into {@code wc}, oldest first, and
     * returns how many. Never blocks and allocates nothing.
     */
    default int poll(WorkCompletion[] wc) {
        return poll(wc, wc.length);
    }

    int poll(WorkCompletion[] wc, int max);

    /**
     * ibv_req_notify_cq: arms the CQ so that the next completion (with {@code solicitedOnly},
     * the next solicited or error completion) raises one event on the channel.
     */
    void requestNotify(boolean solicitedOnly);

    /** ibv_ack_cq_events. */
    void ackEvents(int n);

    /** ibv_destroy_cq: refused with EBUSY while a QP uses it. */
    @Override
    void close();
}
