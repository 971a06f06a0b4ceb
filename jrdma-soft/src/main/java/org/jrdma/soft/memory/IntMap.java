package org.jrdma.soft.memory;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * An open-addressing map from int keys to objects: lookups by QPN or key on the packet path
 * without boxing. Not thread-safe; owners synchronize.
 */
public final class IntMap<V> {
    private static final int EMPTY = 0;

    private int[] keys;
    private Object[] values;
    private boolean[] used;
    private int size;

    public IntMap() {
        keys = new int[16];
        values = new Object[16];
        used = new boolean[16];
    }

    public int size() {
        return size;
    }

    private static int mix(int key) {
        int h = key * 0x9E3779B9;
        return h ^ (h >>> 16);
    }

    @SuppressWarnings("unchecked")
    public V get(int key) {
        int mask = keys.length - 1;
        for (int i = mix(key) & mask; used[i]; i = (i + 1) & mask) {
            if (keys[i] == key) {
                return (V) values[i];
            }
        }
        return null;
    }

    public boolean containsKey(int key) {
        return get(key) != null;
    }

    /** Puts a non-null value; returns the previous one. */
    @SuppressWarnings("unchecked")
    public V put(int key, V value) {
        if (value == null) {
            throw new IllegalArgumentException("null value");
        }
        if ((size + 1) * 2 > keys.length) {
            grow();
        }
        int mask = keys.length - 1;
        int i = mix(key) & mask;
        while (used[i]) {
            if (keys[i] == key) {
                V old = (V) values[i];
                values[i] = value;
                return old;
            }
            i = (i + 1) & mask;
        }
        used[i] = true;
        keys[i] = key;
        values[i] = value;
        size++;
        return null;
    }

    @SuppressWarnings("unchecked")
    public V remove(int key) {
        int mask = keys.length - 1;
        int i = mix(key) & mask;
        while (used[i]) {
            if (keys[i] == key) {
                V old = (V) values[i];
                deleteAt(i);
                size--;
                return old;
            }
            i = (i + 1) & mask;
        }
        return null;
    }

    /** Backward-shift deletion keeps probe chains intact without tombstones. */
    private void deleteAt(int hole) {
        int mask = keys.length - 1;
        int i = hole;
        while (true) {
            i = (i + 1) & mask;
            if (!used[i]) {
                break;
            }
            int home = mix(keys[i]) & mask;
            boolean movable = hole <= i ? (home <= hole || home > i) : (home <= hole && home > i);
            if (movable) {
                keys[hole] = keys[i];
                values[hole] = values[i];
                hole = i;
            }
        }
        used[hole] = false;
        keys[hole] = EMPTY;
        values[hole] = null;
    }

    @SuppressWarnings("unchecked")
    private void grow() {
        int[] oldKeys = keys;
        Object[] oldValues = values;
        boolean[] oldUsed = used;
        keys = new int[oldKeys.length * 2];
        values = new Object[oldKeys.length * 2];
        used = new boolean[oldKeys.length * 2];
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldUsed[i]) {
                put(oldKeys[i], (V) oldValues[i]);
            }
        }
    }

    /** Slots to scan with {@link #valueAt}: iteration without a lambda (hot paths allocate nothing). */
    public int slots() {
        return keys.length;
    }

    /** The value in {@code slot}, or null when the slot is free. */
    @SuppressWarnings("unchecked")
    public V valueAt(int slot) {
        return used[slot] ? (V) values[slot] : null;
    }

    @SuppressWarnings("unchecked")
    public void forEach(Consumer<V> action) {
        for (int i = 0; i < keys.length; i++) {
            if (used[i]) {
                action.accept((V) values[i]);
            }
        }
    }

    public void clear() {
        Arrays.fill(used, false);
        Arrays.fill(values, null);
        size = 0;
    }
}
