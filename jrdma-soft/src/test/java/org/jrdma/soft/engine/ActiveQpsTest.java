package org.jrdma.soft.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.jrdma.soft.transport.TransportQp;
import org.jrdma.verbs.QpType;
import org.junit.jupiter.api.Test;

/** The active list alone, with stand-ins for QPs: doorbells, arrivals, visits and the earliest deadline. */
class ActiveQpsTest {
    record Qp(int qpNum, ActiveQps.Slot activeSlot) implements EngineQp {
        Qp(int qpNum) {
            this(qpNum, new ActiveQps.Slot());
        }

        @Override
        public TransportQp transport() {
            throw new UnsupportedOperationException("not needed by the list");
        }

        @Override
        public QpType qpType() {
            return QpType.RC;
        }
    }

    private final ActiveQps active = new ActiveQps();

    @Test
    void aDoorbellRungTwiceMakesTheQpActiveOnce() {
        Qp a = new Qp(10);
        active.ring(a);
        active.ring(a);
        assertThat(active.count()).as("rung, not yet taken").isZero();
        active.takeDoorbells();
        active.add(a); // a packet for it in the same pass
        assertThat(active.count()).isEqualTo(1);
        assertThat(active.get(0)).isSameAs(a);
    }

    @Test
    void aVisitThatKeepsNothingDropsTheQpAndADoorbellBringsItBack() {
        Qp a = new Qp(10);
        Qp b = new Qp(11);
        Qp c = new Qp(12);
        active.add(a);
        active.add(b);
        active.add(c);
        active.beginVisits();
        active.visited(0, false, 0);
        active.visited(1, true, 0);
        active.visited(2, false, 0);
        active.endVisits();
        assertThat(active.count()).isEqualTo(1);
        assertThat(active.get(0)).isSameAs(b);

        active.ring(a);
        active.ring(b); // active already: not listed twice
        active.takeDoorbells();
        assertThat(active.count()).isEqualTo(2);
        assertThat(active.get(0)).isSameAs(b);
        assertThat(active.get(1)).isSameAs(a);
    }

    @Test
    void theEarliestDeadlineIsAmongTheKeptQpsAndWrapsLikeNanoTime() {
        assertThat(active.nanosUntilNextTimer(0)).as("nothing armed").isEqualTo(Long.MAX_VALUE);
        long base = Long.MAX_VALUE - 50; // deadlines either side of the nanoTime wrap
        Qp a = new Qp(10);
        Qp b = new Qp(11);
        Qp c = new Qp(12);
        active.add(a);
        active.add(b);
        active.add(c);
        active.beginVisits();
        active.visited(0, true, base + 100); // wraps past Long.MAX_VALUE: later than base + 40
        active.visited(1, true, base + 40);
        active.visited(2, false, base + 1); // dropped: its deadline does not count
        active.endVisits();
        assertThat(active.nanosUntilNextTimer(base)).isEqualTo(40);
        assertThat(active.nanosUntilNextTimer(base + 60)).as("overdue").isZero();

        active.beginVisits();
        active.visited(0, true, 0);
        active.visited(1, true, 0);
        active.endVisits();
        assertThat(active.nanosUntilNextTimer(base)).as("kept for work, no timer").isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void theListGrowsPastItsFirstArrays() {
        for (int i = 0; i < 100; i++) {
            active.ring(new Qp(100 + i));
        }
        active.takeDoorbells();
        assertThat(active.count()).isEqualTo(100);
        assertThat(active.get(99).qpNum()).isEqualTo(199);
    }
}
