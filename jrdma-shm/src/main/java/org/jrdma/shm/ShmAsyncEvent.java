package org.jrdma.shm;

import org.jrdma.verbs.AsyncEvent;
import org.jrdma.verbs.AsyncEventType;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.SharedReceiveQueue;

/** An asynchronous event of an shm context. */
record ShmAsyncEvent(AsyncEventType type, QueuePair qp, CompletionQueue cq, SharedReceiveQueue srq, ShmContext context)
        implements AsyncEvent {
    @Override
    public int portNum() {
        return 1;
    }

    @Override
    public void ack() {
        context.ackAsync();
    }
}
