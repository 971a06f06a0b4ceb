package org.jrdma.verbs;

/**
 * {@code struct ibv_async_event}: one asynchronous event and the object it concerns (a QP, CQ or
 * SRQ, or a port number for port events; the others are null / 0). Each event returned by
 * {@link Context#getAsyncEvent} must be acknowledged with {@link #ack()} (ibv_ack_async_event).
 */
public interface AsyncEvent {
    AsyncEventType type();

    QueuePair qp();

    CompletionQueue cq();

    SharedReceiveQueue srq();

    int portNum();

    /** ibv_ack_async_event. */
    void ack();
}
