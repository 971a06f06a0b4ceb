package org.jrdma.bench.baseline;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Set;

/**
 * {@code MemorySegment.copy} bandwidth, the baseline of {@code write_bw --provider shm}: on the
 * shared-memory provider a WRITE is one copy, by the requester, from its registered memory into
 * the peer's, so the floor it can reach is the copy itself. One process (a copy needs no peer):
 * {@code --size} bytes from one off-heap segment to another, {@code --count} times after
 * {@code --warmup} unmeasured copies (or for a time), and the figure in MiB/s.
 *
 * <p>The working set is perf's: both segments are page-aligned, allocated once from a shared
 * arena, each the size of one of perf's regions ({@link #regionBytes}: 1 MiB, or the message
 * rounded up to a page if larger), and the copies cycle through slots as perf's WRITEs do —
 * the source through as many 64-byte-aligned slots as fit its region (at most 256), the
 * destination within max(size, 4096) bytes of its start (perftest's cycle buffer, a page), so
 * at 64 KiB the source cycles through 16 slots and every copy lands on the same destination.
 *
 * <pre>
 * local --size S (--count N [--warmup W] | --seconds D [--warmup-seconds D0])
 * </pre>
 */
public final class SegmentCopy {
    static final String NAME = "segment_copy";
    /** The role of this single-process baseline. */
    public static final String ROLE = "local";
    private static final Set<String> KEYS = Set.of("size", "count", "warmup", "seconds", "warmup-seconds");
    /** perf's BufferLayout: a region is at least this, slots are this aligned, at most this many; its cycle buffer. */
    static final long RING_BYTES = 1 << 20;
    static final int ALIGN = 64;
    static final int MAX_SLOTS = 256;
    static final int CYCLE_BUFFER = 4096;
    static final long PAGE = 4096;

    private SegmentCopy() {
    }

    public static void main(String[] args) {
        BaselineProcess.run(NAME, args, () -> {
            BaselineArgs a = BaselineArgs.parse(args, List.of(ROLE), KEYS);
            copy(a.positiveInt("size"), RunLength.from(a));
        });
    }

    /** Each segment's size: one perf region. */
    static long regionBytes(int size) {
        return Math.max(RING_BYTES, roundUp(size, PAGE));
    }

    static int stride(int size) {
        return (int) roundUp(size, ALIGN);
    }

    /** The source's slots: as many as fill the region, 1..256 (perf's local slots). */
    static int sourceSlots(int size) {
        return (int) Math.clamp(regionBytes(size) / stride(size), 1, MAX_SLOTS);
    }

    /** The destination's slots: within max(size, cycle buffer) of its start, 1..256 (perf's remote slots). */
    static int destinationSlots(int size) {
        return Math.clamp(Math.max(size, CYCLE_BUFFER) / stride(size), 1, MAX_SLOTS);
    }

    private static void copy(int size, RunLength run) {
        try (Arena arena = Arena.ofShared()) {
            long region = regionBytes(size);
            MemorySegment src = arena.allocate(region, PAGE);
            MemorySegment dst = arena.allocate(region, PAGE);
            for (long i = 0; i < region; i++) {
                src.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31 + 7));
            }
            dst.fill((byte) 0); // touch every page before the clock starts, as perf's registered memory is
            int stride = stride(size);
            int srcSlots = sourceSlots(size);
            int dstSlots = destinationSlots(size);
            BaselineProcess.started();
            long seq = 0;
            long warmupEnd = System.nanoTime() + run.warmupNanos();
            for (long i = 0; run.timed() ? System.nanoTime() < warmupEnd : i < run.warmupCount(); i++, seq++) {
                MemorySegment.copy(src, (seq % srcSlots) * stride, dst, (seq % dstSlots) * stride, size);
            }
            long start = System.nanoTime();
            long allocBefore = AllocCounter.now();
            long end = start + run.nanos();
            long measured = 0;
            while (run.timed() ? System.nanoTime() < end : measured < run.count()) {
                MemorySegment.copy(src, (seq % srcSlots) * stride, dst, (seq % dstSlots) * stride, size);
                seq++;
                measured++;
            }
            long allocAfter = AllocCounter.now();
            double seconds = (System.nanoTime() - start) / 1e9;
            long last = seq - 1;
            long mismatch = MemorySegment.mismatch(src, (last % srcSlots) * stride, (last % srcSlots) * stride + size,
                    dst, (last % dstSlots) * stride, (last % dstSlots) * stride + size);
            if (mismatch >= 0) {
                throw new IllegalStateException("the last copy differs from its source at byte " + mismatch);
            }
            BaselineProcess.result(new JsonLine().put("baseline", NAME).put("role", ROLE).put("size", size)
                    .put("messages", measured).put("seconds", seconds)
                    .put("sourceSlots", srcSlots).put("destinationSlots", dstSlots)
                    .put("mibPerSec", (double) measured * size / seconds / (1 << 20))
                    .put("msgRateMpps", measured / seconds / 1e6)
                    .put("allocBytesPerOp", AllocCounter.perOp(allocBefore, allocAfter, measured)));
        }
    }

    private static long roundUp(long v, long to) {
        return (Math.max(v, 1) + to - 1) / to * to;
    }
}
