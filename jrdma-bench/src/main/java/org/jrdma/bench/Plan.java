package org.jrdma.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * Which shapes run, and what each is compared with: the issue's list (write_bw, send_bw,
 * read_bw at 64 B, 4 KiB, 64 KiB, 1 MiB against TCP streaming of the same message size;
 * send_lat and write_lat at 8 B and 4 KiB against UDP and TCP ping-pong) and its two targets.
 */
public record Plan(List<Shape> shapes) {
    /** Allocation per operation below this counts as zero: a few fixed allocations spread over a run, not one per operation. */
    public static final double ZERO_ALLOC_BELOW_BYTES = 1.0;

    public static Plan issue() {
        List<Shape> shapes = new ArrayList<>();
        for (String test : List.of("write_bw", "send_bw", "read_bw")) {
            for (int size : List.of(64, 4096, 65536, 1 << 20)) {
                shapes.add(new Shape(test, size));
            }
        }
        for (String test : List.of("send_lat", "write_lat")) {
            for (int size : List.of(8, 4096)) {
                shapes.add(new Shape(test, size));
            }
        }
        return new Plan(List.copyOf(shapes));
    }

    /**
     * The shapes some filter selects: {@code TEST} (every size) or {@code TEST@BYTES}, e.g.
     * {@code write_bw@65536} or {@code send_lat}.
     */
    public Plan only(List<String> filters) {
        List<Shape> kept = shapes.stream().filter(s -> filters.stream().anyMatch(f -> selects(f, s))).toList();
        if (kept.isEmpty()) {
            throw new IllegalArgumentException("--only " + String.join(",", filters) + " selects no shape; shapes: "
                    + String.join(", ", shapes.stream().map(s -> s.test() + "@" + s.sizeBytes()).distinct().toList()));
        }
        return new Plan(kept);
    }

    private static boolean selects(String filter, Shape s) {
        int at = filter.indexOf('@');
        if (at < 0) {
            return filter.equals(s.test());
        }
        return filter.substring(0, at).equals(s.test()) && filter.substring(at + 1).equals(String.valueOf(s.sizeBytes()));
    }

    /** The baselines a shape is compared with; the first is the one its ratio and target use. */
    public static List<Baseline> baselinesFor(Shape s) {
        return s.kind() == Kind.BANDWIDTH ? List.of(Baseline.TCP_STREAM) : List.of(Baseline.UDP_PINGPONG, Baseline.TCP_PINGPONG);
    }

    /**
     * The issue's targets: RDMA WRITE at 64 KiB at least 0.5× TCP streaming; 8-byte send_lat at
     * most 2× the UDP ping-pong half round trip. Null for every other row.
     */
    public static Target targetFor(Shape s, Baseline b) {
        if (s.test().equals("write_bw") && s.sizeBytes() == 65536 && b == Baseline.TCP_STREAM) {
            return Target.atLeast(0.5);
        }
        if (s.test().equals("send_lat") && s.sizeBytes() == 8 && b == Baseline.UDP_PINGPONG) {
            return Target.atMost(2.0);
        }
        return null;
    }
}
