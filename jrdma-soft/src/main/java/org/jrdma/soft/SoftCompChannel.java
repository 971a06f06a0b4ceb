package org.jrdma.soft;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.function.BooleanSupplier;
import java.util.concurrent.locks.ReentrantLock;
import org.jrdma.verbs.CompletionChannel;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;

/** A completion channel: armed CQs queue one event each here when a completion arrives. */
public final class SoftCompChannel implements CompletionChannel {
    private final SoftContext context;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition ready = lock.newCondition();
    private final ArrayDeque<SoftCq> events = new ArrayDeque<>();
    private int attachedCqs;
    private boolean closed;
    /** {@link #eventOrClosed} as the test a driving waiter repeats: made once, so that a wait allocates nothing. */
    private final BooleanSupplier eventOrClosedTest = this::eventOrClosed;

    SoftCompChannel(SoftContext context) {
        this.context = context;
    }

    /** Called by an armed CQ (under its own lock) when it fires. */
    void post(SoftCq cq) {
        lock.lock();
        try {
            events.addLast(cq);
            ready.signal();
        } finally {
            lock.unlock();
        }
        context.hca().eventPosted();
    }

    /** Whether getEvent has something to return (an event, or the channel closed). */
    private boolean eventOrClosed() {
        lock.lock();
        try {
            return !events.isEmpty() || closed;
        } finally {
            lock.unlock();
        }
    }

    void attach() {
        lock.lock();
        try {
            attachedCqs++;
        } finally {
            lock.unlock();
        }
    }

    void detach(SoftCq cq) {
        lock.lock();
        try {
            attachedCqs--;
            events.removeIf(e -> e == cq);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public CompletionQueue getEvent(Duration timeout) {
        long deadline = System.nanoTime() + Math.min(timeout.toNanos(), Long.MAX_VALUE / 4); // no overflow for "for ever"
        // Run the engine on this thread until the event comes (one hop from packet to waiter);
        // when another thread drives already, the device thread moves the packets while we wait.
        boolean blocks = !eventOrClosed() && !context.hca().driveUntil(eventOrClosedTest, deadline);
        if (blocks) {
            context.hca().waiterBlocks();
        }
        long remaining = deadline - System.nanoTime();
        lock.lock();
        try {
            while (events.isEmpty()) {
                if (closed) {
                    throw new VerbsException(Errno.EBUSY, "get_cq_event: the completion channel was closed");
                }
                if (remaining <= 0) {
                    throw new VerbsException(Errno.ETIMEDOUT, "get_cq_event: no completion event within " + timeout);
                }
                remaining = ready.awaitNanos(remaining);
            }
            SoftCq cq = events.removeFirst();
            return cq;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new VerbsException(Errno.EAGAIN, "get_cq_event: interrupted", e);
        } finally {
            lock.unlock();
            if (blocks) {
                context.hca().waiterDone();
            }
        }
    }

    void forceClose() {
        lock.lock();
        try {
            attachedCqs = 0;
        } finally {
            lock.unlock();
        }
        close();
    }

    /** ibv_destroy_comp_channel: refused while CQs still use it. */
    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            if (attachedCqs > 0) {
                throw new VerbsException(Errno.EBUSY, "destroy_comp_channel: " + attachedCqs + " CQ(s) still use it");
            }
            closed = true;
            ready.signalAll();
        } finally {
            lock.unlock();
        }
        context.hca().eventPosted();
        context.forget(this);
    }

}
