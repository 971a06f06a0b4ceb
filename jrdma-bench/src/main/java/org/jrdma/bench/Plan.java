package org.jrdma.bench;

import java.util.ArrayList;
import java.util.List;
import org.jrdma.bench.Target.Measure;

/**
 * Which shapes run, and what each is compared with (issue 15): write_bw, send_bw, read_bw at
 * 64 B, 4 KiB, 64 KiB, 1 MiB against TCP streaming of the same message size; send_lat and
 * write_lat at 8 B and 4 KiB against UDP and TCP ping-pong; write_bw 64 KiB with -q 16 against
 * -q 1, and beside 1,000 idle QPs against it alone (both jrdma against jrdma, back to back);
 * write_bw 64 B with -l 16 (post lists) against TCP streaming of 64 B, as the plain run;
 * send_lat 8 B with -e against a blocking UDP ping-pong; and the issue's targets. Issue 18's
 * shapes run on the shared-memory provider ({@link Variant#SHM}): write_bw at 64 KiB and 1 MiB
 * against {@code MemorySegment.copy} of the same size, send_lat and write_lat at 8 B against a
 * ping-pong through a shared memory-mapped file and the UDP ping-pong.
 */
public record Plan(List<Shape> shapes) {
    /** Allocation per operation below this counts as zero: a few fixed allocations spread over a run, not one per operation. */
    public static final double ZERO_ALLOC_BELOW_BYTES = 1.0;
    public static final int BW_TARGET_SIZE = 65536;
    /** {@code --only TEST@BYTES:plain} selects the shape without its variants. */
    public static final String PLAIN = "plain";
    /** The issue whose targets a shape has: issue 18's are the shared-memory provider's. */
    public static final int ISSUE = 15;
    public static final int SHM_ISSUE = 18;
    public static final int SHM_LAT_TARGET_SIZE = 8;
    /** Issue 18: write_bw 1 MiB on shm at least this × MemorySegment.copy of 1 MiB. */
    public static final double SHM_WRITE_VS_COPY = 0.7;
    /** Issue 18: an 8 B half round trip on shm, busy polling, at most this many µs. */
    public static final double SHM_HALF_RTT_US = 0.5;

    public static Plan issue() {
        List<Shape> shapes = new ArrayList<>();
        for (String test : List.of("write_bw", "send_bw", "read_bw")) {
            for (int size : List.of(64, 4096, 65536, 1 << 20)) {
                shapes.add(new Shape(test, size));
            }
        }
        shapes.add(new Shape("write_bw", 64, Variant.L16));
        shapes.add(new Shape("write_bw", BW_TARGET_SIZE, Variant.Q16));
        shapes.add(new Shape("write_bw", BW_TARGET_SIZE, Variant.IDLE));
        for (String test : List.of("send_lat", "write_lat")) {
            for (int size : List.of(8, 4096)) {
                shapes.add(new Shape(test, size));
            }
        }
        shapes.add(new Shape("send_lat", 8, Variant.EVENTS));
        for (int size : List.of(65536, 1 << 20)) {
            shapes.add(new Shape("write_bw", size, Variant.SHM));
        }
        for (String test : List.of("send_lat", "write_lat")) {
            shapes.add(new Shape(test, SHM_LAT_TARGET_SIZE, Variant.SHM));
        }
        return new Plan(List.copyOf(shapes));
    }

    /**
     * The shapes some filter selects: {@code TEST} (every size and variant), {@code TEST@BYTES}
     * (that size, every variant), {@code TEST@BYTES:VARIANT} or {@code TEST@BYTES:plain} (no
     * variant), e.g. {@code write_bw@65536}, {@code write_bw@65536:q16} or {@code send_lat}.
     */
    public Plan only(List<String> filters) {
        List<Shape> kept = shapes.stream().filter(s -> filters.stream().anyMatch(f -> selects(f, s))).toList();
        if (kept.isEmpty()) {
            throw new IllegalArgumentException("--only " + String.join(",", filters) + " selects no shape; shapes: "
                    + String.join(", ", shapes.stream().map(Shape::id).distinct().toList()));
        }
        return new Plan(kept);
    }

    private static boolean selects(String filter, Shape s) {
        if (filter.endsWith(":" + PLAIN)) {
            return s.variant() == Variant.NONE && filter.equals(s.id() + ":" + PLAIN);
        }
        if (filter.contains(":")) {
            return filter.equals(s.id());
        }
        int at = filter.indexOf('@');
        if (at < 0) {
            return filter.equals(s.test());
        }
        return filter.substring(0, at).equals(s.test()) && filter.substring(at + 1).equals(String.valueOf(s.sizeBytes()));
    }

    /** The issue that set a shape's targets: 18 for the shared-memory provider's, else 15. */
    public static int issueOf(Shape s) {
        return s.variant() == Variant.SHM ? SHM_ISSUE : ISSUE;
    }

    /** The baselines a shape is compared with; each is a row. */
    public static List<Baseline> baselinesFor(Shape s) {
        if (s.reference() != null) {
            return List.of(Baseline.JRDMA);
        }
        if (s.variant() == Variant.EVENTS) {
            return List.of(Baseline.UDP_BLOCKING_PINGPONG);
        }
        if (s.variant() == Variant.SHM) {
            return s.kind() == Kind.BANDWIDTH ? List.of(Baseline.SEGMENT_COPY) : List.of(Baseline.MAPPED_PINGPONG, Baseline.UDP_PINGPONG);
        }
        return s.kind() == Kind.BANDWIDTH ? List.of(Baseline.TCP_STREAM) : List.of(Baseline.UDP_PINGPONG, Baseline.TCP_PINGPONG);
    }

    /**
     * The issue's targets for a row (issue 15), none for most:
     * <ul>
     * <li>write/send/read_bw against TCP streaming: at 64 KiB and 1 MiB ≥ 1.0×, at 4 KiB ≥ 0.8×,
     * at 64 B ≥ 1.0× and ≥ 1 M messages/s (write_bw -l 16 is judged by the same); at every size
     * CPU seconds per GiB ≤ 1.5× TCP's;
     * <li>send_lat 8 B against UDP ping-pong: median ≤ 1.3×, p99 ≤ 2×, p99.9 ≤ 3×;
     * <li>write_lat 8 B against UDP ping-pong: median ≤ 1.5×;
     * <li>send_lat 8 B -e against a blocking UDP ping-pong: median ≤ 1.5×;
     * <li>write_bw 64 KiB -q 16 (aggregate) ≥ 0.9× -q 1; beside 1,000 idle QPs ≥ 0.9× alone;
     * <li>issue 18, {@code --provider shm}: write_bw 1 MiB ≥ 0.7× MemorySegment.copy of 1 MiB;
     * send_lat and write_lat 8 B: jrdma's median ≤ 0.5 µs (on the mapped-file ping-pong's row,
     * the shape's first: the bound is on jrdma's own figure).
     * </ul>
     * Zero bytes allocated per operation applies to every row (see {@link Row#allocVerdict}).
     */
    public static List<Target> targetsFor(Shape s, Baseline b) {
        List<Target> t = new ArrayList<>();
        if (s.variant() == Variant.SHM) {
            if (b == Baseline.SEGMENT_COPY && s.sizeBytes() == 1 << 20) {
                t.add(Target.atLeast(SHM_WRITE_VS_COPY));
            } else if (b == Baseline.MAPPED_PINGPONG && s.sizeBytes() == SHM_LAT_TARGET_SIZE) {
                t.add(Target.atMost(Measure.LATENCY_US, SHM_HALF_RTT_US));
            }
            return List.copyOf(t);
        }
        if (b == Baseline.JRDMA) {
            t.add(Target.atLeast(0.9));
        } else if (b == Baseline.TCP_STREAM) {
            switch (s.sizeBytes()) {
                case 64 -> {
                    t.add(Target.atLeast(1.0));
                    t.add(Target.atLeast(Measure.MSG_RATE, 1.0));
                }
                case 4096 -> t.add(Target.atLeast(0.8));
                case 65536, 1 << 20 -> t.add(Target.atLeast(1.0));
                default -> {
                }
            }
            t.add(Target.atMost(Measure.CPU_RATIO, 1.5));
        } else if (b == Baseline.UDP_PINGPONG && s.sizeBytes() == 8 && s.test().equals("send_lat")) {
            t.add(Target.atMost(1.3));
            t.add(Target.atMost(Measure.P99_RATIO, 2.0));
            t.add(Target.atMost(Measure.P999_RATIO, 3.0));
        } else if (b == Baseline.UDP_PINGPONG && s.sizeBytes() == 8 && s.test().equals("write_lat")) {
            t.add(Target.atMost(1.5));
        } else if (b == Baseline.UDP_BLOCKING_PINGPONG && s.sizeBytes() == 8) {
            t.add(Target.atMost(1.5));
        }
        return List.copyOf(t);
    }
}
