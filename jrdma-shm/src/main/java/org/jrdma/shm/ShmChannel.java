package org.jrdma.shm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import org.jrdma.shm.sys.Futex;
import org.jrdma.verbs.CompletionChannel;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;

/**
 * A completion channel: a futex word in the node's control memory. A requester that completes
 * into an armed CQ of this channel — in any process — counts the event in the CQ's slot, bumps
 * the word and wakes it; {@link #getEvent} sleeps on the word until then.
 */
final class ShmChannel implements CompletionChannel {
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    final ShmContext context;
    final int index;
    private final MemorySegment word;
    /** The CQs of this channel, replaced whole on attach and detach so that a wait iterates without allocating. */
    private volatile ShmCq[] cqs = new ShmCq[0];
    private volatile boolean closed;

    ShmChannel(ShmContext context) {
        this.context = context;
        Node node = context.node;
        this.index = node.claimChannel();
        long s = Layout.channelSlot(index);
        this.word = node.ctl.asSlice(s + Layout.CH_WORD, 4);
        node.channels[index] = this;
        INT.setRelease(node.ctl, s + Layout.CH_LIVE, 1);
    }

    synchronized void attach(ShmCq cq) {
        ShmCq[] now = java.util.Arrays.copyOf(cqs, cqs.length + 1);
        now[now.length - 1] = cq;
        cqs = now;
    }

    synchronized void detach(ShmCq cq) {
        cqs = java.util.Arrays.stream(cqs).filter(c -> c != cq).toArray(ShmCq[]::new);
    }

    @Override
    public CompletionQueue getEvent(Duration timeout) {
        long deadline = System.nanoTime() + Math.max(0, timeout.toNanos());
        while (true) {
            if (closed) {
                throw new VerbsException(Errno.EBUSY, "get_cq_event: the completion channel was closed");
            }
            int seen = (int) INT.getAcquire(word, 0L);
            for (ShmCq cq : cqs) {
                if (cq.takeEvent()) {
                    return cq;
                }
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new VerbsException(Errno.ETIMEDOUT, "get_cq_event: no completion event within " + timeout);
            }
            // Bounded slices, so that close() and a thread interrupt are noticed.
            if (!Futex.sleep(word, seen, Math.min(left, 50_000_000L))) {
                java.util.concurrent.locks.LockSupport.parkNanos(Math.min(left, 1_000_000L)); // no futex here: pace the polls
            }
            if (Thread.currentThread().isInterrupted()) {
                throw new VerbsException(Errno.EAGAIN, "get_cq_event: interrupted");
            }
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        ShmCq[] attached = cqs;
        if (attached.length > 0 && !context.isClosing()) {
            throw new VerbsException(Errno.EBUSY, "destroy_comp_channel: " + attached.length + " CQ(s) still use it");
        }
        closed = true;
        Node node = context.node;
        INT.setRelease(node.ctl, Layout.channelSlot(index) + Layout.CH_LIVE, 0);
        INT.getAndAdd(word, 0L, 1);
        Futex.wake(word, Integer.MAX_VALUE);
        node.channels[index] = null;
        node.freeChannel(index);
        context.forget(this);
    }
}
