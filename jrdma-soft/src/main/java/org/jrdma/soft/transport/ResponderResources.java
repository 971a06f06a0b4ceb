package org.jrdma.soft.transport;

import java.lang.foreign.MemorySegment;
import org.jrdma.soft.memory.Region;
import org.jrdma.soft.wire.Psn;

/**
 * What a responder remembers of the READs and atomics it executed (rxe resp.resources): a ring
 * of max_dest_rd_atomic entries, the oldest recycled. A duplicate READ is replayed from its
 * entry (re-reading memory, re-checking the region), a duplicate atomic is answered with the
 * saved original value and never executed twice (IBA C9-148, REL-06/07). A replayed READ
 * carries memory as it is at the replay, which may differ from what the first response carried
 * if the region was written in between (as in rxe); a duplicate whose entry was recycled is
 * dropped (class D) and the requester's retries end in RETRY_EXC_ERR. The ring also holds
 * the READ reply in progress, which the engine sends a bounded number of packets at a time.
 */
final class ResponderResources {
    /** One remembered READ or atomic. */
    static final class Entry {
        boolean atomic;
        int firstPsn;
        int lastPsn;
        long va;
        int rkey;
        long length;
        Region mr;
        MemorySegment target;
        long targetOffset;
        long original;
        boolean used;
        /** READ: the latest PSN a replay of this entry started at (SEC-20, see ReadAtomicResponder). */
        int replayHighPsn;
        /** READ: replays in a row that did not start later than {@link #replayHighPsn}. */
        int stalledReplays;
        /** READ: the responder's expected PSN when it last replayed (or executed) this entry. */
        int replayEPsn;
    }

    private Entry[] ring = new Entry[0];
    private int next;

    // The READ reply in progress: entry, next PSN, bytes of the entry's range still to send.
    Entry replying;
    int replyPsn;
    long replyOffset;
    long replyEnd;
    boolean replyFirst;

    void resize(int capacity) {
        int n = Math.max(1, capacity);
        if (ring.length != n) {
            ring = new Entry[n];
            for (int i = 0; i < n; i++) {
                ring[i] = new Entry();
            }
            next = 0;
        }
    }

    /** Takes the next entry, recycling the oldest (rxe does the same). */
    Entry allocate() {
        if (ring.length == 0) {
            resize(1);
        }
        Entry e = ring[next];
        next = (next + 1) % ring.length;
        if (replying == e) {
            stopReply();
        }
        e.used = true;
        return e;
    }

    /** The READ entry whose PSN range holds {@code psn}, or null. */
    Entry findRead(int psn) {
        for (Entry e : ring) {
            if (e.used && !e.atomic && Psn.compare(psn, e.firstPsn) >= 0 && Psn.compare(psn, e.lastPsn) <= 0) {
                return e;
            }
        }
        return null;
    }

    /** The atomic entry for {@code psn}, or null. */
    Entry findAtomic(int psn) {
        for (Entry e : ring) {
            if (e.used && e.atomic && e.firstPsn == psn) {
                return e;
            }
        }
        return null;
    }

    /** Starts (or restarts) replying to {@code e} from PSN {@code psn}, {@code offset} bytes into its range. */
    void startReply(Entry e, int psn, long offset, long end) {
        replying = e;
        replyPsn = psn;
        replyOffset = offset;
        replyEnd = end;
        replyFirst = true;
    }

    void stopReply() {
        replying = null;
    }

    void clear() {
        for (Entry e : ring) {
            e.used = false;
            e.mr = null;
            e.target = null;
        }
        next = 0;
        stopReply();
    }
}
