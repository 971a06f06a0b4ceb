package org.jrdma.verbs;

/**
 * {@code struct ibv_async_event}: one asynchronous event and the object it concerns (a QP, CQ or
 * SRQ, or a port number for port events; the others are null / 0). Each event returned by
 * {@link Context#getAsyncEvent} must be acknowledged with {@link #ack()} (ibv_ack_async_event).
 */
public interface AsyncEvent {
    /** {@return what happened (event_type)} */
    AsyncEventType type();

    /** {@return the QP a QP event concerns, else null} */
    QueuePair qp();

    /** {@return the CQ a {@link AsyncEventType#CQ_ERR} event concerns, else null} */
    CompletionQueue cq();

    /** {@return the SRQ an SRQ event concerns, else null} */
    SharedReceiveQueue srq();

    /** {@return the port (from 1) a port event concerns, else 0} */
    int portNum();

    /** ibv_ack_async_event. */
    void ack();
}
