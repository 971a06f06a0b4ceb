package org.jrdma.soft;

import org.jrdma.verbs.AsyncEvent;
import org.jrdma.verbs.AsyncEventType;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.SharedReceiveQueue;

/** One asynchronous event of a soft device context. */
record SoftAsyncEvent(AsyncEventType type, QueuePair qp, CompletionQueue cq, SharedReceiveQueue srq, int portNum,
        SoftContext context) implements AsyncEvent {
    @Override
    public void ack() {
        context.ackAsync();
    }
}
