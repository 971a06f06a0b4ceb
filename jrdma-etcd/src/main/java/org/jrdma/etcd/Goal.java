package org.jrdma.etcd;

import io.etcd.jetcd.KeyValue;
import java.util.List;

/** What a waiting rank collects under one prefix of its epoch: peers' info for it, or a barrier's arrivals. */
interface Goal {
    /** "connection info", "barrier verified": for the message of a {@code MissingRanksException}. */
    String what();

    /** The prefix whose puts count, in the rank's epoch. */
    String prefix();

    /** A key put under {@link #prefix()}. */
    void put(KeyValue kv);

    boolean done();

    /**
     * Whether a rank's part has been counted: a rank that did its part and then left (closed,
     * taking its keys with its lease) is not missing.
     */
    default boolean has(int rank) {
        return !missing().contains(rank);
    }

    /** The ranks not yet counted, ascending. */
    List<Integer> missing();
}
