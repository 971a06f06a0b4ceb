package org.jrdma.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AwaitTest {
    @Test
    void untilRunsProgressUntilTheConditionHolds() {
        AtomicInteger steps = new AtomicInteger();
        Await.until(steps::incrementAndGet, () -> steps.get() >= 5, Duration.ofSeconds(5), "five steps");
        assertThat(steps.get()).isEqualTo(5);
    }

    @Test
    void untilDoesNotRunProgressWhenTheConditionAlreadyHolds() {
        AtomicInteger steps = new AtomicInteger();
        Await.until(steps::incrementAndGet, () -> true, Duration.ZERO, "nothing");
        assertThat(steps.get()).isZero();
    }

    @Test
    void untilFailsNamingWhatItAwaited() {
        assertThatThrownBy(() -> Await.until(() -> false, Duration.ofMillis(20), "the moon"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("awaiting the moon");
    }

    @Test
    void holdsForPassesWhileTheInvariantHoldsAndFailsWhenItBreaks() {
        Await.holdsFor(Thread::onSpinWait, () -> true, Duration.ofMillis(20), () -> "never");
        AtomicInteger steps = new AtomicInteger();
        assertThatThrownBy(() -> Await.holdsFor(steps::incrementAndGet, () -> steps.get() < 3, Duration.ofSeconds(5),
                () -> "a third step")).isInstanceOf(AssertionError.class).hasMessageContaining("a third step");
    }
}
