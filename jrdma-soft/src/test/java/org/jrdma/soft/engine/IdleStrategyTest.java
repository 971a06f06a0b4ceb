package org.jrdma.soft.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.jrdma.soft.engine.IdleStrategy.Step;
import org.junit.jupiter.api.Test;

/** Each idle strategy, stepped by hand with a parker that only counts (no thread ever sleeps). */
class IdleStrategyTest {
    /** Counts parks instead of waiting. */
    private static final class CountingParker implements IdleStrategy.Parker {
        int parks;

        @Override
        public void park() {
            parks++;
        }
    }

    private final CountingParker parker = new CountingParker();

    @Test
    void backoffSpinsThenYieldsThenParks() {
        BackoffIdle idle = new BackoffIdle(4, 2, parker);

        // idle passes 1..3 spin (fewer than 4), 4..5 yield, then every pass parks
        assertThat(steps(idle, 8)).containsExactly(Step.SPIN, Step.SPIN, Step.SPIN, Step.YIELD, Step.YIELD,
                Step.PARK, Step.PARK, Step.PARK);
        assertThat(parker.parks).isEqualTo(3);
    }

    @Test
    void backoffStartsOverAfterWorkOrAReset() {
        BackoffIdle idle = new BackoffIdle(2, 1, parker);
        steps(idle, 5);

        assertThat(idle.idle(3)).as("a pass that did work").isEqualTo(Step.NONE);
        assertThat(steps(idle, 3)).containsExactly(Step.SPIN, Step.YIELD, Step.PARK);
        idle.reset();
        assertThat(steps(idle, 3)).containsExactly(Step.SPIN, Step.YIELD, Step.PARK);
        assertThat(parker.parks).isEqualTo(3 + 1 + 1);
    }

    /** The engine thread's default is the loop it always ran: 19 999 spins, 200 yields, then park. */
    @Test
    void theDefaultBackoffIsTodaysEngineLoop() {
        BackoffIdle idle = new BackoffIdle(parker);
        int spins = 0;
        int yields = 0;
        Step step;
        while ((step = idle.idle(0)) != Step.PARK) {
            if (step == Step.SPIN) {
                assertThat(yields).as("no spin after a yield").isZero();
                spins++;
            } else {
                yields++;
            }
        }
        assertThat(spins).isEqualTo(BackoffIdle.SPIN_PASSES - 1).isEqualTo(19_999);
        assertThat(yields).isEqualTo(BackoffIdle.YIELD_PASSES).isEqualTo(200);
        assertThat(parker.parks).isEqualTo(1);
    }

    @Test
    void backoffWithoutSpinsOrYieldsParksAtOnce() {
        assertThat(steps(new BackoffIdle(0, 0, parker), 2)).containsExactly(Step.PARK, Step.PARK);
        assertThatThrownBy(() -> new BackoffIdle(-1, 0, parker)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void spinNeverParks() {
        SpinIdle idle = new SpinIdle();
        assertThat(steps(idle, 3)).containsOnly(Step.SPIN).hasSize(3);
        assertThat(idle.idle(1)).isEqualTo(Step.NONE);
    }

    @Test
    void yieldNeverParks() {
        YieldIdle idle = new YieldIdle();
        assertThat(steps(idle, 3)).containsOnly(Step.YIELD).hasSize(3);
        assertThat(idle.idle(1)).isEqualTo(Step.NONE);
    }

    @Test
    void parkParksOnEveryIdlePassAndNeverAfterWork() {
        ParkIdle idle = new ParkIdle(parker);
        assertThat(idle.idle(5)).isEqualTo(Step.NONE);
        assertThat(parker.parks).isZero();
        assertThat(steps(idle, 3)).containsOnly(Step.PARK).hasSize(3);
        assertThat(parker.parks).isEqualTo(3);
    }

    private static Step[] steps(IdleStrategy idle, int idlePasses) {
        Step[] s = new Step[idlePasses];
        for (int i = 0; i < idlePasses; i++) {
            s[i] = idle.idle(0);
        }
        return s;
    }
}
