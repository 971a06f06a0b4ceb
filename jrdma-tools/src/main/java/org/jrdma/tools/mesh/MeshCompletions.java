package org.jrdma.tools.mesh;

import java.util.function.IntFunction;
import org.jrdma.tools.CqWaiter;
import org.jrdma.tools.FailedCompletion;
import org.jrdma.verbs.CompletionChannel;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;

/**
 * The one CQ of a mesh rank, waited on through its completion channel ({@link CqWaiter}, as
 * {@code perf -e}) rather than by spinning: a host may run many ranks on few cores, and a
 * spinning rank takes the core its peers' soft engines need.
 */
final class MeshCompletions {
    private final CompletionQueue cq;
    private final CqWaiter waiter;
    private final WorkCompletion[] wc = {new WorkCompletion()};
    private final IntFunction<String> peerOfQpn;

    /** {@code peerOfQpn} names the peer of a local QP number ("rank 3") for errors. */
    MeshCompletions(CompletionQueue cq, CompletionChannel channel, IntFunction<String> peerOfQpn) {
        this.cq = cq;
        this.waiter = new CqWaiter(channel, cq, cq);
        this.peerOfQpn = peerOfQpn;
    }

    /** The next completion, successful; a failed one or the deadline is an error naming {@code what}. */
    WorkCompletion next(long deadlineNanos, String what) {
        while (cq.poll(wc) == 0) {
            if (deadlineNanos - System.nanoTime() <= 0) {
                throw new IllegalStateException("no completion for " + what + " before the deadline");
            }
            waiter.idle(deadlineNanos);
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
