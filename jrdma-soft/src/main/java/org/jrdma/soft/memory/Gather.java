package org.jrdma.soft.memory;

import java.lang.foreign.MemorySegment;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.SgList;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;

/**
 * A scatter/gather list resolved at post time: for each SGE the registered segment and the
 * offset into it. Resolving once means the packet path never looks keys up again; a region
 * deregistered afterwards is caught when its segment is touched ({@link #stillValid}).
 */
public final class Gather {
    private final MemorySegment[] segments;
    private final long[] offsets;
    private final int[] lengths;
    private final Region[] regions;
    private int count;
    private long totalLength;

    public Gather(int maxSge) {
        segments = new MemorySegment[Math.max(1, maxSge)];
        offsets = new long[segments.length];
        lengths = new int[segments.length];
        regions = new Region[segments.length];
    }

    public void clear() {
        for (int i = 0; i < count; i++) {
            segments[i] = null;
            regions[i] = null;
        }
        count = 0;
        totalLength = 0;
    }

    /** Becomes a copy of {@code other}; this list must have room for as many SGEs. */
    public void copyFrom(Gather other) {
        clear();
        for (int i = 0; i < other.count; i++) {
            add(other.regions[i], other.segments[i], other.offsets[i], other.lengths[i]);
        }
    }

    public int capacity() {
        return segments.length;
    }

    public void add(Region mr, MemorySegment segment, long offset, int length) {
        regions[count] = mr;
        segments[count] = segment;
        offsets[count] = offset;
        lengths[count] = length;
        count++;
        totalLength += length;
    }

    /**
     * Fills this list from a WR's SGEs, checked against the registered regions: lkey, same
     * PD, range (overflow-safe) and, for receive buffers, LOCAL_WRITE. Returns null, or the
     * status the WR will complete with. A failure is not a post error in ibverbs: the WR
     * completes later with LOC_PROT_ERR, so it is recorded here and reported then.
     */
    public WcStatus resolve(SgList sgl, MemoryTable memory, PdId pd, boolean needLocalWrite) {
        return resolve(sgl, memory, pd, needLocalWrite, false);
    }

    /**
     * With {@code byAddress}, the lkey is not looked at (ibv_post_send.3: an inline send's
     * L_Key is not checked) and the region is found by address instead — Java still needs a
     * registered segment to read from.
     */
    public WcStatus resolve(SgList sgl, MemoryTable memory, PdId pd, boolean needLocalWrite, boolean byAddress) {
        for (int i = 0; i < sgl.count(); i++) {
            Sge s = sgl.get(i);
            if (s.length < 0) {
                return WcStatus.LOC_LEN_ERR;
            }
            Region mr = byAddress ? memory.byAddress(pd, s.addr, s.length) : memory.byLkey(s.lkey);
            if (mr == null || mr.pd() != pd || !mr.isValid() || !mr.contains(s.addr, s.length)
                    || (needLocalWrite && (mr.access() & AccessFlags.LOCAL_WRITE) == 0)) {
                clear();
                return WcStatus.LOC_PROT_ERR;
            }
            add(mr, mr.segment(), s.addr - mr.addr(), s.length);
        }
        return null;
    }

    public long totalLength() {
        return totalLength;
    }

    /** True while every region it points into is still registered and alive. */
    public boolean stillValid() {
        for (int i = 0; i < count; i++) {
            if (regions[i] != null && !regions[i].isValid()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Copies {@code length} bytes starting {@code from} bytes into this list to {@code dst} at
     * {@code dstOffset} (gather).
     */
    public void copyOut(long from, MemorySegment dst, long dstOffset, int length) {
        copy(from, dst, dstOffset, length, true);
    }

    /** Copies {@code length} bytes from {@code src} into this list starting {@code at} bytes in (scatter). */
    public void copyIn(MemorySegment src, long srcOffset, long at, int length) {
        copy(at, src, srcOffset, length, false);
    }

    /**
     * Walks the list from the start to byte {@code at}, then copies SGE by SGE between it and
     * {@code other}. The list is short (≤ 32 SGEs), so a walk from the start is cheap and needs
     * no cursor to rewind on retransmission.
     */
    private void copy(long at, MemorySegment other, long otherOffset, int length, boolean outOfList) {
        int i = 0;
        long skip = at;
        while (i < count && skip >= lengths[i]) {
            skip -= lengths[i];
            i++;
        }
        int left = length;
        while (left > 0) {
            int n = (int) Math.min(left, lengths[i] - skip);
            if (outOfList) {
                MemorySegment.copy(segments[i], offsets[i] + skip, other, otherOffset, n);
            } else {
                MemorySegment.copy(other, otherOffset, segments[i], offsets[i] + skip, n);
            }
            otherOffset += n;
            left -= n;
            skip = 0;
            i++;
        }
    }
}
