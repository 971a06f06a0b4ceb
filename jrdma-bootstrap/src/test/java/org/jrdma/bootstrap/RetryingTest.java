package org.jrdma.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.LocalTime;
import org.junit.jupiter.api.Test;

/** The deadline of a retrying client, as the clock shows it. */
class RetryingTest {
    /** Always hours, minutes and seconds: LocalTime's own text said "14:05" when the seconds were 0. */
    @Test
    void theDeadlineAlwaysHasItsSeconds() {
        assertThat(Retrying.until(LocalTime.of(14, 5, 0), Duration.ofMillis(1500))).isEqualTo("trying again until 14:05:00 (1.5 s)");
        assertThat(Retrying.until(LocalTime.of(0, 4, 0, 999_000_000), Duration.ofSeconds(30)))
                .isEqualTo("trying again until 00:04:00 (30.0 s)");
        assertThat(Retrying.until(System.nanoTime() + 1_000_000_000L, Duration.ofSeconds(1)))
                .matches("trying again until \\d\\d:\\d\\d:\\d\\d \\(1\\.0 s\\)");
    }
}
