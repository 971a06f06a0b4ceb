package org.jrdma.examples;

import java.time.Duration;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;

/** Busy-polling a CQ for the next completion, with a deadline: the examples' one wait. */
final class Cq {
    /** Longer than any example needs on a busy machine; a stuck peer still ends the program. */
    static final Duration DEADLINE = Duration.ofSeconds(30);

    private Cq() {
    }

    /**
     * The next completion of {@code cq}; throws when none comes within {@link #DEADLINE} or when
     * it is an error completion, naming {@code what} was awaited.
     */
    static WorkCompletion next(CompletionQueue cq, String what) {
        WorkCompletion[] wc = {new WorkCompletion()};
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (cq.poll(wc) == 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no completion for " + what + " within " + DEADLINE.toSeconds() + " s");
            }
            Thread.onSpinWait();
        }
        if (wc[0].status != WcStatus.SUCCESS) {
            throw new IllegalStateException(what + " failed: " + wc[0].status.str() + " (" + wc[0] + ")");
        }
        return wc[0];
    }
}
