package org.jrdma.bootstrap;

import java.time.Duration;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/**
 * How a client that finds no server yet, and tries again until its deadline, says so — once, at
 * the first refusal ({@link ExchangeEvent.Phase#RETRYING}), so that nobody waits in silence: the
 * TCP exchange's connect and perf -R's connection manager word their deadline the same way.
 */
public final class Retrying {
    private Retrying() {
    }

    /** {@code "trying again until 14:05:03 (30.0 s)"}: the deadline as the clock shows it, and the whole timeout. */
    public static String until(long deadlineNanos, Duration timeout) {
        LocalTime at = LocalTime.now().plusNanos(deadlineNanos - System.nanoTime()).truncatedTo(ChronoUnit.SECONDS);
        return String.format(Locale.ROOT, "trying again until %s (%.1f s)", at, timeout.toMillis() / 1e3);
    }
}
