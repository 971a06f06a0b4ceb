package org.jrdma.tools.perf;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The eight tests of {@code jrdma perf}, named as perftest's programs without the {@code ib_}
 * prefix, with perftest's per-test defaults (perftest_parameters.h: DEF_SIZE_BW 65536,
 * DEF_SIZE_LAT 2, DEF_ITERS 1000 for latency and 5000 for bandwidth, DEF_TX_BW 128, DEF_TX_LAT 1).
 */
public enum PerfTest {
    SEND_BW("send_bw", Verb.SEND, true),
    WRITE_BW("write_bw", Verb.WRITE, true),
    READ_BW("read_bw", Verb.READ, true),
    ATOMIC_BW("atomic_bw", Verb.ATOMIC, true),
    SEND_LAT("send_lat", Verb.SEND, false),
    WRITE_LAT("write_lat", Verb.WRITE, false),
    READ_LAT("read_lat", Verb.READ, false),
    ATOMIC_LAT("atomic_lat", Verb.ATOMIC, false);

    /** An atomic operates on one 8-byte word. */
    static final int ATOMIC_BYTES = 8;

    private final String cliName;
    private final Verb verb;
    private final boolean bandwidth;

    PerfTest(String cliName, Verb verb, boolean bandwidth) {
        this.cliName = cliName;
        this.verb = verb;
        this.bandwidth = bandwidth;
    }

    public String cliName() {
        return cliName;
    }

    Verb verb() {
        return verb;
    }

    public boolean isBandwidth() {
        return bandwidth;
    }

    int defaultSize() {
        if (verb == Verb.ATOMIC) {
            return ATOMIC_BYTES;
        }
        return bandwidth ? 65536 : 2;
    }

    int defaultIters() {
        return bandwidth ? 5000 : 1000;
    }

    int defaultTxDepth() {
        return bandwidth ? 128 : 1;
    }

    /**
     * perftest leaves max inline data to the test when {@code -I} is not given: 0 for bandwidth,
     * enough for small messages in send_lat (236 on RC/UC, 188 on UD) and write_lat (220).
     */
    int defaultInline(boolean ud) {
        return switch (this) {
            case SEND_LAT -> ud ? 188 : 236;
            case WRITE_LAT -> 220;
            default -> 0;
        };
    }

    /** Latency is half the round trip for SEND and WRITE (a ping-pong), the whole of it for READ and atomics. */
    int rttFactor() {
        return verb.usesReadResources() ? 1 : 2;
    }

    /** The test named {@code name}, or null. */
    static PerfTest byName(String name) {
        for (PerfTest t : values()) {
            if (t.cliName.equals(name)) {
                return t;
            }
        }
        return null;
    }

    static String names() {
        return Arrays.stream(values()).map(PerfTest::cliName).collect(Collectors.joining(", "));
    }
}
