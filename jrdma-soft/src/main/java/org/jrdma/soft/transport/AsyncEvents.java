package org.jrdma.soft.transport;

import org.jrdma.verbs.AsyncEventType;

/** Raises asynchronous events about one QP (ibv_get_async_event's producer side). */
@FunctionalInterface
public interface AsyncEvents {
    AsyncEvents NONE = type -> { };

    void raise(AsyncEventType type);
}
