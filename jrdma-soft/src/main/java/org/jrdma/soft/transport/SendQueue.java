package org.jrdma.soft.transport;

/**
 * A QP's send queue: a ring of preallocated WQEs and three positions that only grow (rxe's
 * queue indices). Entries in [head, tail) are outstanding: [head, next) have been started by
 * the requester and wait for the completer, [next, tail) wait for the requester. Posting moves
 * {@link #tail}, the requester {@link #next}, completion {@link #head}; a go-back-N rewind
 * brings {@link #next} back to {@link #head}.
 */
final class SendQueue {
    private final SendWqe[] ring;
    /** The oldest entry not completed. */
    long head;
    /** The entry the requester works on. */
    long next;
    /** The next free entry. */
    long tail;

    SendQueue(int capacity, int maxSge) {
        ring = new SendWqe[Math.max(1, capacity)];
        for (int i = 0; i < ring.length; i++) {
            ring[i] = new SendWqe(maxSge);
        }
    }

    int capacity() {
        return ring.length;
    }

    /** The ring slot of position {@code index}. */
    int slot(long index) {
        return (int) (index % ring.length);
    }

    /** The entry at position {@code index}. */
    SendWqe at(long index) {
        return ring[slot(index)];
    }

    /** The oldest outstanding entry, or null when none is. */
    SendWqe oldest() {
        return head < tail ? ring[slot(head)] : null;
    }

    boolean isFull() {
        return tail - head >= ring.length;
    }

    /** Outstanding entries (posted, not completed). */
    int depth() {
        return (int) (tail - head);
    }
}
