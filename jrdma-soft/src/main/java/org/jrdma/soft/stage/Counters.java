package org.jrdma.soft.stage;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A set of counters indexed by an enum. Written by the engine thread, read by anyone;
 * {@link AtomicLongArray} keeps readers from seeing torn or stale values.
 */
public final class Counters<E extends Enum<E>> {
    private final E[] keys;
    private final AtomicLongArray values;

    public Counters(Class<E> type) {
        this.keys = type.getEnumConstants();
        this.values = new AtomicLongArray(keys.length);
    }

    public void increment(E key) {
        values.getAndIncrement(key.ordinal());
    }

    public void add(E key, long delta) {
        values.getAndAdd(key.ordinal(), delta);
    }

    public long get(E key) {
        return values.get(key.ordinal());
    }

    /** A snapshot, in declaration order, keyed by lower-case names. */
    public Map<String, Long> snapshot() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (E k : keys) {
            m.put(k.name().toLowerCase(java.util.Locale.ROOT), values.get(k.ordinal()));
        }
        return m;
    }
}
