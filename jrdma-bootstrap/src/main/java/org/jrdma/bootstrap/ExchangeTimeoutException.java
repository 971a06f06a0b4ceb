package org.jrdma.bootstrap;

import java.time.Duration;

/** A step did not finish before its absolute deadline (OOB-03 silent peer, OOB-04 slowloris). */
public class ExchangeTimeoutException extends BootstrapException {
    /** The step whose deadline passed. */
    private final ExchangeStep step;
    /** The deadline the step had. */
    private final Duration timeout;

    /**
     * A missed deadline.
     *
     * @param step the step that did not finish
     * @param timeout the time it had
     * @param detail more about it (the peer's address, say), or empty
     */
    public ExchangeTimeoutException(ExchangeStep step, Duration timeout, String detail) {
        super(step.label() + ": deadline of " + timeout.toMillis() + " ms passed" + (detail.isEmpty() ? "" : " " + detail));
        this.step = step;
        this.timeout = timeout;
    }

    /**
     * The step whose deadline passed.
     *
     * @return the step
     */
    public ExchangeStep step() {
        return step;
    }

    /**
     * The time the step had.
     *
     * @return the timeout
     */
    public Duration timeout() {
        return timeout;
    }
}
