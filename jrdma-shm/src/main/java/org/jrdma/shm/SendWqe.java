package org.jrdma.shm;

import java.lang.foreign.MemorySegment;
import org.jrdma.verbs.WrOpcode;
import org.jrdma.verbs.WcStatus;

/**
 * A posted send work request as the send queue keeps it until it completes: the caller's
 * fields copied, its local SGEs resolved to segments at post time (so a bad lkey becomes a
 * completion, as on a NIC), inline data copied. Preallocated per queue slot and reused.
 */
final class SendWqe {
    long wrId;
    WrOpcode opcode;
    boolean signaled;
    boolean solicited;
    int immData;
    long remoteAddr;
    int rkey;
    long compareAdd;
    long swap;
    /** Non-null when posting found the request broken locally (it completes with this status). */
    WcStatus postError;
    int sgeCount;
    long total;
    final MemorySegment[] segment;
    final long[] offset;
    final long[] length;
    final MemorySegment inline;
    // Retry state, as the RC requester keeps it for the WR at the head of the queue.
    int rnrLeft;
    int retryLeft;
    long deadline;
    /** When the WR first found its peer QP not there (the start of RC's retry time), or 0. */
    long firstTry;
    boolean stalled;

    SendWqe(int maxSge, MemorySegment inline) {
        this.segment = new MemorySegment[Math.max(1, maxSge)];
        this.offset = new long[segment.length];
        this.length = new long[segment.length];
        this.inline = inline;
    }

    void reset() {
        postError = null;
        for (int i = 0; i < sgeCount; i++) {
            segment[i] = null; // only the entries the last use filled
        }
        sgeCount = 0;
        total = 0;
        stalled = false;
        deadline = 0;
        firstTry = 0;
    }
}
