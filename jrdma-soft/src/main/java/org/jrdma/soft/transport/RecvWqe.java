package org.jrdma.soft.transport;

import org.jrdma.soft.memory.Gather;
import org.jrdma.verbs.WcStatus;

/** A receive-queue entry: the buffer a SEND scatters into, resolved at post time. */
public final class RecvWqe {
    long wrId;
    final Gather gather;
    WcStatus postError;

    RecvWqe(int maxSge) {
        gather = new Gather(maxSge);
    }

    void reset() {
        gather.clear();
        postError = null;
    }

    /** Takes over {@code other}'s contents (no allocation): the responder's copy of a taken entry. */
    void copyFrom(RecvWqe other) {
        wrId = other.wrId;
        postError = other.postError;
        gather.copyFrom(other.gather);
    }
}
