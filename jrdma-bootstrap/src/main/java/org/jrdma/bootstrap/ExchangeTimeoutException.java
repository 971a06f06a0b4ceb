package org.jrdma.bootstrap;

import java.time.Duration;

/** A step did not finish before its absolute deadline (OOB-03 silent peer, OOB-04 slowloris). */
public class ExchangeTimeoutException extends BootstrapException {
    private final ExchangeStep step;
    private final Duration timeout;

    public ExchangeTimeoutException(ExchangeStep step, Duration timeout, String detail) {
        super(step.label() + ": deadline of " + timeout.toMillis() + " ms passed" + (detail.isEmpty() ? "" : " " + detail));
        this.step = step;
        this.timeout = timeout;
    }

    public ExchangeStep step() {
        return step;
    }

    public Duration timeout() {
        return timeout;
    }
}
