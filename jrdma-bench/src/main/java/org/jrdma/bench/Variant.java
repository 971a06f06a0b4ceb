package org.jrdma.bench;

import java.util.List;

/**
 * How a shape's jrdma run differs from plain {@code jrdma perf TEST -s SIZE}: more perf flags,
 * and what it is compared with. {@link #NONE} is the plain run.
 *
 * @param name       the id used by {@code --only TEST@BYTES:NAME}; empty for {@link #NONE}
 * @param label      what the table says after the shape, e.g. "-q 16"
 * @param perfArgs   the flags given to both jrdma perf processes
 * @param qps        QPs that carry traffic: a bandwidth run's message count is shared among them
 * @param versusPlain compared with the plain run of the same test and size (jrdma against jrdma,
 *                   back to back), not with a Java NIO baseline
 * @param postList   WRs per post call ({@code perf -l}); a count-mode run's {@code -n} is a multiple of it
 */
public record Variant(String name, String label, List<String> perfArgs, int qps, boolean versusPlain, int postList) {
    public static final int IDLE_QPS = 1000;

    public static final int POST_LIST = 16;

    public static final Variant NONE = new Variant("", "", List.of(), 1, false, 1);
    /** 16 QPs round robin; the aggregate against -q 1. */
    public static final Variant Q16 = new Variant("q16", "-q 16", List.of("-q", "16"), 16, true, 1);
    /** One busy QP beside 1,000 connected QPs that carry nothing (jrdma perf's --idle-qps). */
    public static final Variant IDLE = new Variant("idle" + IDLE_QPS, "beside " + IDLE_QPS + " idle QPs",
            List.of("--idle-qps", String.valueOf(IDLE_QPS)), 1, true, 1);
    /** Sleeping on CQ events instead of busy polling (perftest -e). */
    public static final Variant EVENTS = new Variant("events", "-e", List.of("-e"), 1, false, 1);
    /**
     * 16 WRs per post call, chained as one list (jrdma perf's {@code -l}, perftest's
     * --post_list; CQ moderation 16 with it); compared with TCP streaming like the plain run.
     */
    public static final Variant L16 = new Variant("l" + POST_LIST, "-l " + POST_LIST, List.of("-l", String.valueOf(POST_LIST)),
            1, false, POST_LIST);

    /**
     * On the shared-memory provider (device shm0: a WRITE is one copy by the requester into the
     * peer's memory), compared with same-host Java twins: {@code MemorySegment.copy} for
     * bandwidth, a ping-pong through a shared memory-mapped file (and UDP's) for latency.
     */
    public static final Variant SHM = new Variant("shm", "--provider shm", List.of("--provider", "shm"), 1, false, 1);

    public Variant {
        perfArgs = List.copyOf(perfArgs);
        if (qps < 1) {
            throw new IllegalArgumentException("qps must be >= 1: " + qps);
        }
        if (postList < 1) {
            throw new IllegalArgumentException("postList must be >= 1: " + postList);
        }
    }
}
