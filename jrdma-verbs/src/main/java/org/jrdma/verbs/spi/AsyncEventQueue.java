package org.jrdma.verbs.spi;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jrdma.verbs.AsyncEvent;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;

/**
 * A context's asynchronous events as ibv_get_async_event and ibv_ack_async_event see them: a
 * bounded queue any thread posts to (past the bound, events are dropped, as a kernel's event
 * file would overflow), a blocking take with a timeout, and the count of events taken and not
 * yet acknowledged. Shared by the providers so that every one says the same.
 */
public final class AsyncEventQueue {
    private final int capacity;
    private final ArrayDeque<AsyncEvent> events = new ArrayDeque<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition ready = lock.newCondition();
    private int unacked;

    /**
     * Creates an empty queue.
     *
     * @param capacity the most events it holds; more are dropped
     */
    public AsyncEventQueue(int capacity) {
        this.capacity = capacity;
    }

    /**
     * Queues an event and wakes a taker; any thread.
     *
     * @param event the event
     */
    public void post(AsyncEvent event) {
        lock.lock();
        try {
            if (events.size() < capacity) {
                events.addLast(event);
                ready.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes the oldest event, waiting for one up to {@code timeout}; the caller must
     * {@link #ack} it.
     *
     * @param timeout how long to wait
     * @return the event
     * @throws VerbsException ETIMEDOUT when none came, EAGAIN when interrupted
     */
    public AsyncEvent take(Duration timeout) {
        long remaining = timeout.toNanos();
        lock.lock();
        try {
            while (events.isEmpty()) {
                if (remaining <= 0) {
                    throw new VerbsException(Errno.ETIMEDOUT, "get_async_event: no event within " + timeout);
                }
                remaining = ready.awaitNanos(remaining);
            }
            unacked++;
            return events.removeFirst();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new VerbsException(Errno.EAGAIN, "get_async_event: interrupted", e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Acknowledges one taken event.
     *
     * @throws VerbsException EINVAL when every taken event was acknowledged already
     */
    public void ack() {
        lock.lock();
        try {
            if (unacked == 0) {
                throw new VerbsException(Errno.EINVAL, "ack_async_event: no event to acknowledge");
            }
            unacked--;
        } finally {
            lock.unlock();
        }
    }
}
