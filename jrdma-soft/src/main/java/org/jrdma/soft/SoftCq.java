package org.jrdma.soft;

import java.util.concurrent.locks.ReentrantLock;
import org.jrdma.verbs.CompletionChannel;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;

/**
 * A completion queue: a ring of preallocated {@link WorkCompletion}s. The engine (and the
 * flush path) fills slots in place between {@link #claim} and {@link #commit}, holding the
 * CQ's lock across both; users poll under the same lock. Nothing allocates.
 */
public final class SoftCq implements CompletionQueue {
    private final SoftContext context;
    private final SoftCompChannel channel;
    private final WorkCompletion[] ring;
    private final ReentrantLock lock = new ReentrantLock();
    private long head; // next to poll
    private long tail; // next to fill
    private boolean armed;
    private boolean solicitedOnly;
    private int unackedEvents;
    private int users; // QP queues that complete here
    private boolean overflowed;
    private boolean closed;

    SoftCq(SoftContext context, int cqe, SoftCompChannel channel) {
        if (cqe < 1 || cqe > SoftLimits.MAX_CQE) {
            throw new VerbsException(Errno.EINVAL, "create_cq: cqe " + cqe + " outside 1.." + SoftLimits.MAX_CQE);
        }
        this.context = context;
        this.channel = channel;
        this.ring = new WorkCompletion[cqe];
        for (int i = 0; i < cqe; i++) {
            ring[i] = new WorkCompletion();
        }
        if (channel != null) {
            channel.attach();
        }
    }

    @Override
    public int capacity() {
        return ring.length;
    }

    @Override
    public CompletionChannel channel() {
        return channel;
    }

    /**
     * Locks the CQ and returns the next slot, cleared, for the caller to fill; the caller must
     * then call {@link #commit}. Returns null, unlocked, when the CQ is full (an overflow).
     */
    WorkCompletion claim() {
        lock.lock();
        if (tail - head >= ring.length) {
            overflowed = true;
            lock.unlock();
            return null;
        }
        WorkCompletion wc = ring[(int) (tail % ring.length)];
        wc.clear();
        return wc;
    }

    /** Publishes the slot returned by {@link #claim}, fires the channel if armed, unlocks. */
    void commit(boolean solicited) {
        try {
            WorkCompletion wc = ring[(int) (tail % ring.length)];
            tail++;
            // An error completion always fires, even when armed for solicited only (ibv_req_notify_cq.3).
            if (armed && (!solicitedOnly || solicited || wc.status != WcStatus.SUCCESS)) {
                armed = false;
                if (channel != null) {
                    unackedEvents++;
                    channel.post(this);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * ibv_poll_cq. When the CQ is empty the caller's thread runs one bounded engine pass and
     * looks again, so a busy-polling application moves its own packets (no cross-core wake-up).
     */
    @Override
    public int poll(WorkCompletion[] wc, int max) {
        int n = take(wc, max);
        if (n == 0) {
            context.hca().progressFromApp();
            n = take(wc, max);
        } else {
            // Still polling, just busy: the engine thread must keep standing aside, or it spins
            // beside this thread and the two fight for the cores.
            context.hca().noteAppActive();
        }
        return n;
    }

    private int take(WorkCompletion[] wc, int max) {
        lock.lock();
        try {
            int n = 0;
            int limit = Math.min(max, wc.length);
            while (n < limit && head < tail) {
                wc[n++].copyFrom(ring[(int) (head % ring.length)]);
                head++;
            }
            return n;
        } finally {
            lock.unlock();
        }
    }

    /** Completions waiting to be polled. */
    public int depth() {
        lock.lock();
        try {
            return (int) (tail - head);
        } finally {
            lock.unlock();
        }
    }

    /** True once a completion was lost because the CQ was full. */
    public boolean overflowed() {
        lock.lock();
        try {
            return overflowed;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void requestNotify(boolean solicitedOnly) {
        if (channel == null) {
            throw new VerbsException(Errno.EINVAL, "req_notify_cq: this CQ has no completion channel");
        }
        lock.lock();
        try {
            this.armed = true;
            this.solicitedOnly = solicitedOnly;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void ackEvents(int n) {
        lock.lock();
        try {
            if (n < 0 || n > unackedEvents) {
                throw new VerbsException(Errno.EINVAL, "ack_cq_events: " + n + " acknowledged but " + unackedEvents + " unacknowledged");
            }
            unackedEvents -= n;
        } finally {
            lock.unlock();
        }
    }

    void attachQp() {
        lock.lock();
        try {
            if (closed) {
                throw new VerbsException(Errno.EINVAL, "create_qp: the CQ was destroyed");
            }
            users++;
        } finally {
            lock.unlock();
        }
    }

    void detachQp() {
        lock.lock();
        try {
            users--;
        } finally {
            lock.unlock();
        }
    }

    /** Context close: destroy even with unacknowledged events (its QPs are gone by then). */
    void forceClose() {
        lock.lock();
        try {
            unackedEvents = 0;
            users = 0;
        } finally {
            lock.unlock();
        }
        close();
    }

    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            if (users > 0) {
                throw new VerbsException(Errno.EBUSY, "destroy_cq: " + users + " QP queue(s) still complete to this CQ");
            }
            if (unackedEvents > 0) {
                throw new VerbsException(Errno.EBUSY, "destroy_cq: " + unackedEvents
                        + " completion event(s) not acknowledged (ack_cq_events)");
            }
            closed = true;
        } finally {
            lock.unlock();
        }
        if (channel != null) {
            channel.detach(this);
        }
        context.forget(this);
    }
}
