package org.jrdma.soft.transport;

/**
 * The completer's own variables (rxe {@code qp->comp}): changed by the {@link Completer}, and
 * by modify_qp (retry counters, sq_psn) and the QP's RESET.
 */
final class CompleterState {
    /** The first PSN not yet acknowledged. */
    int compPsn;
    int retryLeft;
    int rnrRetryLeft;
    /** A retry sequence started at {@link #retryStartedPsn} and no progress since (rxe started_retry). */
    boolean retryStarted;
    int retryStartedPsn;
    /**
     * Retries without progress (StallWarnings): whether an episode is on, when it began, whether
     * it was reported, and the counters at its start (its own figures are the difference).
     */
    boolean stalled;
    long stallStartNanos;
    boolean stallReported;
    long stallRnrNaks;
    long stallTimeouts;
    long stallResent;
}
