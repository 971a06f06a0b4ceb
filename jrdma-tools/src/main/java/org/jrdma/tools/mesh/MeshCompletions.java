package org.jrdma.tools.mesh;

import java.time.Duration;
import java.util.function.IntFunction;
import org.jrdma.tools.FailedCompletion;
import org.jrdma.verbs.CompletionChannel;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;

/**
 * The one CQ of a mesh rank, waited on through its completion channel rather than by spinning:
 * a host may run many ranks on few cores, and a spinning rank takes the core its peers' soft
 * engines need. Arm, poll again, then sleep on the channel — a completion that landed before the
 * CQ was armed raises no event.
 */
final class MeshCompletions {
    private final CompletionQueue cq;
    private final CompletionChannel channel;
    private final WorkCompletion[] wc = {new WorkCompletion()};
    private final IntFunction<String> peerOfQpn;

    /** {@code peerOfQpn} names the peer of a local QP number ("rank 3") for errors. */
    MeshCompletions(CompletionQueue cq, CompletionChannel channel, IntFunction<String> peerOfQpn) {
        this.cq = cq;
        this.channel = channel;
        this.peerOfQpn = peerOfQpn;
    }

    /** The next completion, successful; a failed one or the deadline is an error naming {@code what}. */
    WorkCompletion next(long deadlineNanos, String what) {
        while (cq.poll(wc) == 0) {
            cq.requestNotify(false);
            if (cq.poll(wc) != 0) {
                break;
            }
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                throw new IllegalStateException("no completion for " + what + " before the deadline");
            }
            try {
                channel.getEvent(Duration.ofNanos(Math.min(left, Duration.ofSeconds(1).toNanos()))).ackEvents(1);
            } catch (VerbsException e) {
                if (e.errno() != Errno.ETIMEDOUT) {
                    throw e;
                }
            }
        }
        if (wc[0].status != WcStatus.SUCCESS) {
            String peer = peerOfQpn.apply(wc[0].qpNum);
            throw new IllegalStateException(what + ": a completion with " + peer + " failed: "
                    + FailedCompletion.status(wc[0].status)
                    + FailedCompletion.meaning(wc[0].status, peer, s -> "the same --slot-size"));
        }
        return wc[0];
    }
}
