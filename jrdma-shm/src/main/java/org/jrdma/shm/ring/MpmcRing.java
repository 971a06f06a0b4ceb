package org.jrdma.shm.ring;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A bounded multi-producer multi-consumer queue of fixed-size entries that lives entirely in a
 * {@link MemorySegment}, so that processes which map the same memory share it. It is Vyukov's
 * bounded queue: every slot carries a sequence number, a producer claims position {@code p} by
 * advancing the tail with a CAS when the slot's sequence is {@code p}, writes the entry and
 * publishes it by storing {@code p + 1} with release semantics; a consumer claims position
 * {@code p} when the sequence is {@code p + 1} and frees the slot for the next lap by storing
 * {@code p + capacity}. No locks, no allocation; the two counters sit on cache lines of their own.
 *
 * <p>Layout (little-endian, as the host): {@code [0] long tail, [64] long head, [128] int
 * capacity, [132] int entryBytes, [192] slots}; a slot is {@code long seq} then the entry, padded
 * to whole 64-byte lines (the base must be 64-aligned for that to hold). A process that dies between claim and publish leaves the slot claimed for ever —
 * its partner learns of the death from the liveness check, not from this queue.
 *
 * <p>Usage: {@code long p = ring.claimProduce(); if (p >= 0) { write at ring.entry(p);
 * ring.publish(p); }} and {@code long p = ring.claimConsume(); if (p >= 0) { read at
 * ring.entry(p); ring.release(p); }}.
 */
public final class MpmcRing {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final long TAIL = 0;
    private static final long HEAD = 64;
    private static final long CAPACITY = 128;
    private static final long ENTRY_BYTES = 132;
    private static final long SLOTS = 192;

    private final MemorySegment segment;
    private final long base;
    private final int capacity;
    private final long mask;
    private final long stride;
    private final int entryBytes;

    private MpmcRing(MemorySegment segment, long base, int capacity, int entryBytes) {
        this.segment = segment;
        this.base = base;
        this.capacity = capacity;
        this.mask = capacity - 1L;
        this.stride = stride(entryBytes);
        this.entryBytes = entryBytes;
    }

    /** The bytes a ring of {@code capacity} entries of {@code entryBytes} each takes. */
    public static long bytesFor(int capacity, int entryBytes) {
        checkShape(capacity, entryBytes);
        return SLOTS + (long) capacity * stride(entryBytes);
    }

    /** Lays out an empty ring at {@code base} (8-aligned) of {@code segment}, which must be zeroed or unused. */
    public static MpmcRing format(MemorySegment segment, long base, int capacity, int entryBytes) {
        checkShape(capacity, entryBytes);
        checkRoom(segment, base, bytesFor(capacity, entryBytes));
        MpmcRing ring = new MpmcRing(segment, base, capacity, entryBytes);
        for (long i = 0; i < capacity; i++) {
            LONG.setRelease(segment, ring.slot(i), i);
        }
        segment.set(ValueLayout.JAVA_INT, base + CAPACITY, capacity);
        segment.set(ValueLayout.JAVA_INT, base + ENTRY_BYTES, entryBytes);
        LONG.setRelease(segment, base + HEAD, 0L);
        LONG.setRelease(segment, base + TAIL, 0L);
        return ring;
    }

    /**
     * Attaches to a ring another process formatted, checking that its header describes what the
     * caller expects (a peer's memory is not trusted to be well formed).
     */
    public static MpmcRing attach(MemorySegment segment, long base, int capacity, int entryBytes) {
        checkShape(capacity, entryBytes);
        checkRoom(segment, base, bytesFor(capacity, entryBytes));
        int c = segment.get(ValueLayout.JAVA_INT, base + CAPACITY);
        int e = segment.get(ValueLayout.JAVA_INT, base + ENTRY_BYTES);
        if (c != capacity || e != entryBytes) {
            throw new IllegalStateException("ring at " + base + " holds " + c + " entries of " + e
                    + " bytes, expected " + capacity + " of " + entryBytes);
        }
        return new MpmcRing(segment, base, capacity, entryBytes);
    }

    private static void checkShape(int capacity, int entryBytes) {
        if (capacity <= 0 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("ring capacity " + capacity + " is not a power of two");
        }
        if (entryBytes <= 0) {
            throw new IllegalArgumentException("ring entry size " + entryBytes);
        }
    }

    private static void checkRoom(MemorySegment segment, long base, long bytes) {
        if (base < 0 || (base & 7) != 0 || base + bytes > segment.byteSize()) {
            throw new IllegalArgumentException("ring of " + bytes + " bytes at " + base + " does not fit a segment of "
                    + segment.byteSize());
        }
    }

    /**
     * A slot is its sequence number and its entry, rounded up to whole cache lines: a slot shares
     * no line with its neighbours, so a producer and a consumer of the next slot on other cores
     * do not pull the same line back and forth (and a small entry and its sequence number move
     * between cores as one line).
     */
    private static long stride(long entryBytes) {
        return (8 + entryBytes + 63) & ~63L;
    }

    private long slot(long position) {
        return base + SLOTS + (position & mask) * stride;
    }

    /** The segment the entries live in. */
    public MemorySegment segment() {
        return segment;
    }

    /** The offset of the ring's header in {@link #segment()}. */
    public long base() {
        return base;
    }

    /** The size of one entry. */
    public int entryBytes() {
        return entryBytes;
    }

    /** How many entries the ring holds. */
    public int capacity() {
        return capacity;
    }

    /** The offset in {@link #segment()} of the entry at a claimed position. */
    public long entry(long position) {
        return slot(position) + 8;
    }

    /** Claims the next free slot, or returns -1 when the ring is full. */
    public long claimProduce() {
        long tail = (long) LONG.getVolatile(segment, base + TAIL);
        while (true) {
            long seq = (long) LONG.getAcquire(segment, slot(tail));
            long diff = seq - tail;
            if (diff == 0) {
                long witness = (long) LONG.compareAndExchange(segment, base + TAIL, tail, tail + 1);
                if (witness == tail) {
                    return tail;
                }
                tail = witness;
            } else if (diff < 0) {
                return -1;
            } else {
                tail = (long) LONG.getVolatile(segment, base + TAIL);
            }
        }
    }

    /** Makes the entry written at a claimed position visible to consumers. */
    public void publish(long position) {
        LONG.setRelease(segment, slot(position), position + 1);
    }

    /** Claims the oldest published entry, or returns -1 when there is none. */
    public long claimConsume() {
        long head = (long) LONG.getVolatile(segment, base + HEAD);
        while (true) {
            long seq = (long) LONG.getAcquire(segment, slot(head));
            long diff = seq - (head + 1);
            if (diff == 0) {
                long witness = (long) LONG.compareAndExchange(segment, base + HEAD, head, head + 1);
                if (witness == head) {
                    return head;
                }
                head = witness;
            } else if (diff < 0) {
                return -1;
            } else {
                head = (long) LONG.getVolatile(segment, base + HEAD);
            }
        }
    }

    /** Frees the slot of a consumed entry for the producers' next lap. */
    public void release(long position) {
        LONG.setRelease(segment, slot(position), position + capacity);
    }

    /** Entries produced and not yet consumed (a snapshot; exact only when the ring is quiet). */
    public long size() {
        long tail = (long) LONG.getVolatile(segment, base + TAIL);
        long head = (long) LONG.getVolatile(segment, base + HEAD);
        return Math.max(0, Math.min(capacity, tail - head));
    }

    /** Positions consumed so far (the head counter). */
    public long consumed() {
        return (long) LONG.getVolatile(segment, base + HEAD);
    }

    /** Positions claimed by producers so far (the tail counter). */
    public long produced() {
        return (long) LONG.getVolatile(segment, base + TAIL);
    }
}
