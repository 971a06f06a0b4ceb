package org.jrdma.soft.memory;

/**
 * The last {@code capacity} retired identifiers (rkeys of deregistered regions, QPNs of
 * destroyed QPs), which a fresh draw must not return (RELIABILITY-SECURITY SEC-03): a peer that
 * still holds a stale rkey or QPN must hit nothing, not a region or QP made since. Random
 * 32-bit keys would recur by chance after about 2^16 draws (the birthday bound), so "never" is
 * not on offer; a window of the last 2^16 retirements is. The ring grows with use, so a device
 * that deregisters little pays little. Not thread-safe; owners synchronize.
 */
public final class Quarantine {
    /** The default window: the catalogue's bar of 2^16 registrations. */
    public static final int DEFAULT_CAPACITY = 1 << 16;

    private final int capacity;
    private final IntMap<Boolean> members = new IntMap<>();
    private int[] ring;
    private int head;
    private int size;

    public Quarantine(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity " + capacity);
        }
        this.capacity = capacity;
        this.ring = new int[Math.min(16, capacity)];
    }

    public boolean contains(int id) {
        return members.containsKey(id);
    }

    public int size() {
        return size;
    }

    /** Retires {@code id}; the oldest retirement leaves once the window is full. */
    public void add(int id) {
        if (members.containsKey(id)) {
            return;
        }
        if (size == capacity) {
            members.remove(ring[head]);
            ring[head] = id;
            head = (head + 1) % capacity;
        } else {
            if (size == ring.length) {
                grow();
            }
            ring[(head + size) % ring.length] = id;
            size++;
        }
        members.put(id, Boolean.TRUE);
    }

    private void grow() {
        int[] next = new int[Math.min(capacity, ring.length * 2)];
        for (int i = 0; i < size; i++) {
            next[i] = ring[(head + i) % ring.length];
        }
        ring = next;
        head = 0;
    }
}
