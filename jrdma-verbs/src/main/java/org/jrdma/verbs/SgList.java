package org.jrdma.verbs;

import java.util.Arrays;

/** A reusable scatter/gather list: an array of {@link Sge} and how many of them are in use. */
public final class SgList {
    private Sge[] sges;
    private int count;
    private final Sge[] single = new Sge[1];

    public SgList() {
        this.sges = new Sge[0];
    }

    /** Replaces the list with one entry, without allocating (the common case on a hot path). */
    public SgList set(Sge entry) {
        single[0] = entry;
        this.sges = single;
        this.count = 1;
        return this;
    }

    /** Replaces the list with these entries (the array is referenced, not copied). */
    public SgList set(Sge... entries) {
        this.sges = entries;
        this.count = entries.length;
        return this;
    }

    /** Uses the first {@code n} entries of the current array. */
    public SgList count(int n) {
        if (n < 0 || n > sges.length) {
            throw new IllegalArgumentException("num_sge " + n + " outside 0.." + sges.length);
        }
        this.count = n;
        return this;
    }

    public int count() {
        return count;
    }

    public Sge get(int i) {
        if (i >= count) {
            throw new IndexOutOfBoundsException(i);
        }
        return sges[i];
    }

    /** The sum of the lengths, as a long: the caller checks it against the message limit. */
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
