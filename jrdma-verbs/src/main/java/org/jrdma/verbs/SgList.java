package org.jrdma.verbs;

import java.util.Arrays;

/** A reusable scatter/gather list: an array of {@link Sge} and how many of them are in use. */
public final class SgList {
    private Sge[] sges;
    private int count;
    private final Sge[] single = new Sge[1];

    /** An empty list (no entries: a zero-length message). */
    public SgList() {
        this.sges = new Sge[0];
    }

    /**
     * Replaces the list with one entry, without allocating (the common case on a hot path).
     *
     * @param entry the only SGE
     * @return this list
     */
    public SgList set(Sge entry) {
        single[0] = entry;
        this.sges = single;
        this.count = 1;
        return this;
    }

    /**
     * Replaces the list with these entries (the array is referenced, not copied).
     *
     * @param entries the SGEs, in order
     * @return this list
     */
    public SgList set(Sge... entries) {
        this.sges = entries;
        this.count = entries.length;
        return this;
    }

    /**
     * Uses the first {@code n} entries of the current array (num_sge).
     *
     * @param n how many entries are in use
     * @return this list
     * @throws IllegalArgumentException when {@code n} is negative or beyond the array
     */
    public SgList count(int n) {
        if (n < 0 || n > sges.length) {
            throw new IllegalArgumentException("num_sge " + n + " outside 0.." + sges.length);
        }
        this.count = n;
        return this;
    }

    /** {@return the number of entries in use (num_sge)} */
    public int count() {
        return count;
    }

    /**
     * One entry of the list.
     *
     * @param i the entry's index, from 0
     * @return that SGE
     * @throws IndexOutOfBoundsException when {@code i} is not below {@link #count()}
     */
    public Sge get(int i) {
        if (i >= count) {
            throw new IndexOutOfBoundsException(i);
        }
        return sges[i];
    }

    /** {@return the sum of the lengths, as a long: the caller checks it against the message limit} */
    public long totalLength() {
        long total = 0;
        for (int i = 0; i < count; i++) {
            total += Integer.toUnsignedLong(sges[i].length);
        }
        return total;
    }

    @Override
    public String toString() {
        return Arrays.toString(Arrays.copyOf(sges, count));
    }
}
