package org.jrdma.tools.perf;

import org.jrdma.tools.FailedCompletion;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;

/**
 * A failed work completion as the error a perf run ends with: the status in ibverbs' words,
 * what it most likely means here, and — when it is a flush — the failure that flushed it. A QP
 * that fails flushes every WR it still holds, so a side waiting on its receives sees
 * WR_FLUSH_ERR first while the cause (a SEND whose retries ran out: the peer is gone) sits in the
 * send CQ; "receive failed: Work Request Flushed Error" named the symptom only.
 */
final class CompletionFailure {
    /** How many completions of the other CQ are looked through for the cause of a flush. */
    private static final int LOOK_AHEAD = 64;

    private CompletionFailure() {
    }

    /**
     * {@code what} names the failed work ("receive of message 3", "RDMA_WRITE of iteration
     * 1704"); {@code other} is the CQ where the cause of a flush may be (null: none to look at).
     */
    static VerbsException of(String what, WorkCompletion wc, CompletionQueue other) {
        if (wc.status == WcStatus.WR_FLUSH_ERR && other != null) {
            WorkCompletion cause = firstFailure(other);
            if (cause != null) {
                return new VerbsException(Errno.EIO, what + " was flushed (" + text(wc.status) + "): the QP had failed with "
                        + text(cause.status) + " for its WR " + cause.wrId + hint(cause.status));
            }
        }
        return new VerbsException(Errno.EIO, what + " failed: " + text(wc.status) + hint(wc.status));
    }

    private static WorkCompletion firstFailure(CompletionQueue cq) {
        WorkCompletion[] one = {new WorkCompletion()};
        for (int i = 0; i < LOOK_AHEAD && cq.poll(one) > 0; i++) {
            if (one[0].status != WcStatus.SUCCESS && one[0].status != WcStatus.WR_FLUSH_ERR) {
                return one[0];
            }
        }
        return null;
    }

    private static String text(WcStatus status) {
        return FailedCompletion.status(status);
    }

    private static String hint(WcStatus status) {
        return FailedCompletion.meaning(status, "the peer", CompletionFailure::sameFlags);
    }

    /** Which flags to compare when the two perf sides may differ in them. */
    private static String sameFlags(WcStatus status) {
        return switch (status) {
            case RNR_RETRY_EXC_ERR -> "the same test and flags";
            case REM_ACCESS_ERR -> "the same test and -s";
            case REM_INV_REQ_ERR -> "the same test, -c and -s";
            case LOC_LEN_ERR -> "the same -s";
            default -> null;
        };
    }
}
