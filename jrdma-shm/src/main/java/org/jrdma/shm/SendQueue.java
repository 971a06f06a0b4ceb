package org.jrdma.shm;

import java.lang.foreign.Arena;

/** The WRs a QP has posted and not yet completed, oldest first; the slots are preallocated. */
final class SendQueue {
    private final SendWqe[] slots;
    private long head;
    private long tail;

    SendQueue(int capacity, int maxSge, int maxInline, Arena arena) {
        slots = new SendWqe[capacity];
        for (int i = 0; i < capacity; i++) {
            slots[i] = new SendWqe(maxSge, maxInline > 0 ? arena.allocate(maxInline, 8) : null);
        }
    }

    boolean isFull() {
        return tail - head >= slots.length;
    }

    boolean isEmpty() {
        return head == tail;
    }

    int capacity() {
        return slots.length;
    }

    /** The slot the next post fills (then {@link #push}). */
    SendWqe next() {
        return slots[(int) (tail % slots.length)];
    }

    void push() {
        tail++;
    }

    SendWqe peek() {
        return head == tail ? null : slots[(int) (head % slots.length)];
    }

    void pop() {
        head++;
    }

    void clear() {
        head = tail;
    }
}
