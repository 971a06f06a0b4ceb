package org.jrdma.tools;

import java.util.function.Function;
import org.jrdma.verbs.WcStatus;

/**
 * How every tool words a failed work completion: the status as ibverbs names it, and what it
 * most likely means between two peers of a tool — a retry error is the peer gone or stopped,
 * not a fault of ours; a remote error is usually the two sides run with different flags. Each
 * tool says which of its flags the two sides must share; the meanings are the same everywhere.
 */
public final class FailedCompletion {
    private FailedCompletion() {
    }

    /** {@code "transport retry counter exceeded (12)"}: ibv_wc_status_str and the value. */
    public static String status(WcStatus status) {
        return status.str() + " (" + status.value() + ")";
    }

    /**
     * {@code ": the peer stopped acknowledging — …"}, or "" when the status says nothing more
     * than its name. {@code peer} names the other side ("the peer", "the client");
     * {@code sameFlags} gives, for a status that different flags on the two sides can cause,
     * which ones to compare ("the same -s"), or null when there is nothing to compare.
     */
    public static String meaning(WcStatus status, String peer, Function<WcStatus, String> sameFlags) {
        String flags = sameFlags.apply(status);
        String compare = flags == null ? "" : " (do both sides run " + flags + "?)";
        return switch (status) {
            case RETRY_EXC_ERR -> ": " + peer + " stopped acknowledging — it ended, was killed or stopped, or the path to it is down";
            case RNR_RETRY_EXC_ERR -> ": " + peer + " had no receive posted" + compare;
            case REM_ACCESS_ERR -> ": " + peer + " refused the rkey, address or length" + compare;
            case REM_INV_REQ_ERR -> ": " + peer + " refused the request" + compare;
            case LOC_LEN_ERR -> ": a message was larger than the receive" + compare;
            case WR_FLUSH_ERR -> ": the QP had failed before";
            default -> "";
        };
    }
}
