package org.jrdma.tools;

import java.time.Duration;
import org.jrdma.verbs.CompletionChannel;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;

/**
 * What a measuring loop does when a pass found nothing to do: busy-poll (perftest's default;
 * polling a soft CQ also drives the soft engine), or with {@code -e} sleep on the completion
 * channel (and jrdma mesh, always on the channel). Arming comes first and the loop polls again before sleeping, since a completion that
 * landed before the CQ was armed raises no event.
 */
public final class CqWaiter {
    private final CompletionChannel channel;
    private final CompletionQueue sendCq;
    private final CompletionQueue recvCq;
    private boolean armed;
    private static final Duration MAX_WAIT = Duration.ofSeconds(1);
    private static final long MAX_WAIT_NANOS = MAX_WAIT.toNanos();

    public CqWaiter(CompletionChannel channel, CompletionQueue sendCq, CompletionQueue recvCq) {
        this.channel = channel;
        this.sendCq = sendCq;
        this.recvCq = recvCq;
    }

    /** Called after a pass that did no work; returns when the caller should poll again. */
    public void idle(long deadlineNanos) {
        if (channel == null) {
            Thread.onSpinWait();
            return;
        }
        if (!armed) {
            sendCq.requestNotify(false);
            recvCq.requestNotify(false);
            armed = true;
            return;
        }
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
            return; // the caller notices its deadline
        }
        try {
            // One fixed wait of up to a second, so that a wait allocates no Duration; only the last
            // second before the caller's deadline needs one of its own.
            channel.getEvent(left >= MAX_WAIT_NANOS ? MAX_WAIT : Duration.ofNanos(left)).ackEvents(1);
        } catch (VerbsException e) {
            if (e.errno() != Errno.ETIMEDOUT) {
                throw e;
            }
        }
        armed = false;
    }
}
