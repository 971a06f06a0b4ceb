package org.jrdma.soft.engine;

import org.jrdma.soft.transport.Counters;
import org.jrdma.soft.wire.DropReason;

/** A device's dropped packets: counted by reason, always, and logged within a budget (SEC-33). */
final class Drops {
    private final Counters<DropReason> counters;
    private final DropLog log;

    Drops(Counters<DropReason> counters, DropLog log) {
        this.counters = counters;
        this.log = log;
    }

    void drop(DropReason reason) {
        counters.increment(reason);
        log.note(reason); // counted always, logged at most DropLog.LINES_PER_INTERVAL per second
    }

    long count(DropReason reason) {
        return counters.get(reason);
    }

    Counters<DropReason> counters() {
        return counters;
    }

    DropLog log() {
        return log;
    }
}
