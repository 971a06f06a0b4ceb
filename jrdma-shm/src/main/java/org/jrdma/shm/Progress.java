package org.jrdma.shm;

import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import org.jrdma.shm.sys.Futex;
import org.jrdma.verbs.AsyncEventType;

/**
 * The node's one background thread: it retries WRs that wait on a timer (RNR, RC's retry),
 * makes errors a peer's request left in our slots true here (flush, async events), raises
 * CQ_ERR and SRQ_LIMIT_REACHED that peers flagged, and every {@link #LIVENESS_NANOS} checks
 * that the peers our QPs talk to are alive — a peer process that died or closed its device
 * takes our QPs to ERR with error completions, so nothing waits for ever. It sleeps on the
 * node's attention word (peers and local posts wake it) for at most the next deadline.
 */
final class Progress implements Runnable {
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    /** How often peers' liveness is checked: the bound on noticing a dead peer. */
    static final long LIVENESS_NANOS = 50_000_000L;
    private final Node node;
    private final Thread thread;
    private volatile boolean stop;
    /** Liveness passes made (a test waits on it: a pass must allocate nothing). */
    volatile long livenessPasses;

    Progress(Node node) {
        this.node = node;
        this.thread = Thread.ofPlatform().daemon().name("jrdma-shm-progress").unstarted(this);
    }

    long threadId() {
        return thread.threadId();
    }

    void start() {
        thread.start();
    }

    void wake() {
        node.poke();
    }

    void stop() {
        stop = true;
        node.self.poke();
        if (Thread.currentThread() != thread) {
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void run() {
        long nextLiveness = System.nanoTime();
        while (!stop) {
            int seen = (int) INT.getAcquire(node.ctl, Layout.H_ATTENTION);
            long now = System.nanoTime();
            boolean liveness = now - nextLiveness >= 0;
            if (liveness) {
                nextLiveness = now + LIVENESS_NANOS;
                livenessPasses++;
            }
            long next = nextLiveness;
            try {
                next = Math.min(next, pass(now, liveness));
            } catch (RuntimeException e) {
                // an object closed under us: the next pass sees the tables as they are now
            }
            long wait = next - System.nanoTime();
            if (wait > 0 && !stop) {
                if (!Futex.sleep(node.self.attentionWord(), seen, wait)) {
                    LockSupport.parkNanos(Math.min(wait, 1_000_000L)); // no futex on this platform
                }
            }
        }
    }

    private long pass(long now, boolean liveness) {
        long next = Long.MAX_VALUE;
        for (ShmQp qp : node.qps) {
            if (qp != null) {
                next = Math.min(next, qp.progress(now, liveness));
            }
        }
        for (ShmSrq srq : node.srqs) {
            if (srq != null) {
                srq.checkLimit();
            }
        }
        for (ShmCq cq : node.cqs) {
            if (cq != null && cq.reportOverrunOnce()) {
                cq.context.postAsync(AsyncEventType.CQ_ERR, null, cq, null);
            }
        }
        return next;
    }
}
