package org.jrdma.soft.stage;

import java.lang.foreign.MemorySegment;

/**
 * A scatter/gather list resolved at post time: for each SGE the registered segment and the
 * offset into it. Resolving once means the packet path never looks keys up again; a region
 * deregistered afterwards is caught when its segment is touched ({@link #stillValid}).
 */
public final class Gather {
    final MemorySegment[] segments;
    final long[] offsets;
    final int[] lengths;
    final org.jrdma.soft.SoftMr[] regions;
    int count;
    long totalLength;

    Gather(int maxSge) {
        segments = new MemorySegment[Math.max(1, maxSge)];
        offsets = new long[segments.length];
        lengths = new int[segments.length];
        regions = new org.jrdma.soft.SoftMr[segments.length];
    }

    void clear() {
        for (int i = 0; i < count; i++) {
            segments[i] = null;
            regions[i] = null;
        }
        count = 0;
        totalLength = 0;
    }

    void add(org.jrdma.soft.SoftMr mr, MemorySegment segment, long offset, int length) {
        regions[count] = mr;
        segments[count] = segment;
        offsets[count] = offset;
        lengths[count] = length;
        count++;
        totalLength += length;
    }

    public long totalLength() {
        return totalLength;
    }

    /** True while every region it points into is still registered and alive. */
    boolean stillValid() {
        for (int i = 0; i < count; i++) {
            if (regions[i] != null && !regions[i].isValid()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Copies {@code length} bytes starting {@code from} bytes into this list to {@code dst} at
     * {@code dstOffset} (gather). The list is short (≤ 32 SGEs), so a walk from the start is
     * cheap and needs no cursor to rewind on retransmission.
     */
    public void copyOut(long from, MemorySegment dst, long dstOffset, int length) {
        int i = 0;
        long skip = from;
        while (i < count && skip >= lengths[i]) {
            skip -= lengths[i];
            i++;
        }
        int left = length;
        while (left > 0) {
            int n = (int) Math.min(left, lengths[i] - skip);
            MemorySegment.copy(segments[i], offsets[i] + skip, dst, dstOffset, n);
            dstOffset += n;
            left -= n;
            skip = 0;
            i++;
        }
    }

    /** Copies {@code length} bytes from {@code src} into this list starting {@code at} bytes in (scatter). */
    public void copyIn(MemorySegment src, long srcOffset, long at, int length) {
        int i = 0;
        long skip = at;
        while (i < count && skip >= lengths[i]) {
            skip -= lengths[i];
            i++;
        }
        int left = length;
        while (left > 0) {
            int n = (int) Math.min(left, lengths[i] - skip);
            MemorySegment.copy(src, srcOffset, segments[i], offsets[i] + skip, n);
            srcOffset += n;
            left -= n;
            skip = 0;
            i++;
        }
    }
}
