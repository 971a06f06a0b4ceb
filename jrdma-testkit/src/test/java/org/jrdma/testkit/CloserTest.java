package org.jrdma.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CloserTest {
    @Test
    void closesInReverseOrderAndReportsTheFirstFailureWithTheRestSuppressed() {
        List<String> closed = new ArrayList<>();
        Closer closer = new Closer();
        closer.add(() -> closed.add("pd"));
        closer.add(() -> {
            closed.add("cq");
            throw new IllegalStateException("cq");
        });
        closer.add(() -> {
            closed.add("qp");
            throw new IllegalStateException("qp");
        });
        assertThatThrownBy(closer::close).hasMessage("qp").satisfies(e -> assertThat(e.getSuppressed()).hasSize(1));
        assertThat(closed).containsExactly("qp", "cq", "pd");
    }

    @Test
    void aResourceThatFailsToCloseEarlyStaysTracked() {
        List<String> closed = new ArrayList<>();
        boolean[] busy = {true};
        Closer closer = new Closer();
        AutoCloseable pd = () -> {
            if (busy[0]) {
                throw new IllegalStateException("EBUSY");
            }
            closed.add("pd");
        };
        closer.add(pd);
        assertThatThrownBy(() -> closer.closeNow(pd)).hasMessage("EBUSY");
        busy[0] = false;
        closer.close();
        assertThat(closed).containsExactly("pd");
    }
}
