package org.jrdma.soft.transport;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A set of 64-bit counters indexed by an enum, in a memory segment: private memory for a QP's
 * counters, or a slice of a shared file for a device's (so {@code jrdma devinfo -v} in another
 * process can read them, as it would a NIC's). Written by the engine thread, read by anyone;
 * atomic adds keep readers from seeing torn values.
 */
public final class Counters<E extends Enum<E>> {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final E[] keys;
    private final MemorySegment values;

    /** Counters in private memory. */
    public Counters(Class<E> type) {
        this(type, Arena.ofAuto().allocate((long) type.getEnumConstants().length * Long.BYTES, Long.BYTES));
    }

    /** Counters in {@code values}: one 8-byte aligned slot per constant, in declaration order. */
    public Counters(Class<E> type, MemorySegment values) {
        this.keys = type.getEnumConstants();
        if (values.byteSize() < (long) keys.length * Long.BYTES) {
            throw new IllegalArgumentException("counter segment too small for " + type.getSimpleName());
        }
        this.values = values;
    }

    /** Bytes needed for the counters of {@code type}. */
    public static long byteSize(Class<? extends Enum<?>> type) {
        return (long) type.getEnumConstants().length * Long.BYTES;
    }

    public void increment(E key) {
        add(key, 1);
    }

    public void add(E key, long delta) {
        LONG.getAndAdd(values, (long) key.ordinal() * Long.BYTES, delta);
    }

    public long get(E key) {
        return (long) LONG.getVolatile(values, (long) key.ordinal() * Long.BYTES);
    }

    /** A snapshot, in declaration order, keyed by lower-case names. */
    public Map<String, Long> snapshot() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (E k : keys) {
            m.put(label(k), get(k));
        }
        return m;
    }

    /** The name a counter is printed and stored under, e.g. {@code retransmitted_packets}. */
    public static String label(Enum<?> key) {
        return key.name().toLowerCase(java.util.Locale.ROOT);
    }
}
