package org.jrdma.bootstrap;

import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * How a client that finds no server yet, and tries again until its deadline, says so — once, at
 * the first refusal ({@link ExchangeEvent.Phase#RETRYING}), so that nobody waits in silence: the
 * TCP exchange's connect and perf -R's connection manager word their deadline the same way.
 */
public final class Retrying {
    /** Always with the seconds: LocalTime's own text leaves them out when they are 0 ("14:05"). */
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT);

    private Retrying() {
    }

    /**
     * {@code "trying again until 14:05:03 (30.0 s)"}: the deadline as the clock shows it, and the
     * whole timeout.
     *
     * @param deadlineNanos the deadline, in {@link System#nanoTime()} terms
     * @param timeout the whole timeout, for the seconds shown
     * @return the text
     */
    public static String until(long deadlineNanos, Duration timeout) {
        return until(LocalTime.now().plusNanos(deadlineNanos - System.nanoTime()), timeout);
    }

    static String until(LocalTime at, Duration timeout) {
        return String.format(Locale.ROOT, "trying again until %s (%.1f s)", CLOCK.format(at), timeout.toMillis() / 1e3);
    }
}
