package org.jrdma.soft.transport;

import java.util.ArrayList;
import java.util.List;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;

/** A completion queue for stage tests: keeps every committed completion, in order; full after {@code capacity}. */
final class FakeCq implements CompletionSink {
    final List<WorkCompletion> completions = new ArrayList<>();
    private final int capacity;
    private WorkCompletion claimed;

    FakeCq(int capacity) {
        this.capacity = capacity;
    }

    FakeCq() {
        this(1024);
    }

    @Override
    public WorkCompletion claim() {
        if (completions.size() >= capacity) {
            return null;
        }
        claimed = new WorkCompletion();
        return claimed;
    }

    @Override
    public void commit(boolean solicited) {
        completions.add(claimed);
        claimed = null;
    }

    /** The statuses, in order. */
    List<WcStatus> statuses() {
        return completions.stream().map(wc -> wc.status).toList();
    }

    /** Takes (removes) the completions so far. */
    List<WorkCompletion> drain() {
        List<WorkCompletion> all = List.copyOf(completions);
        completions.clear();
        return all;
    }
}
