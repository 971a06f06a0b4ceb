package org.jrdma.bench;

/** What a shape measures, in which unit, and which way is better. */
public enum Kind {
    /** MiB/s (2^20 bytes per second, perftest's "MB/sec"); higher is better. */
    BANDWIDTH("MiB/s", true),
    /** One-way latency in µs, half the round trip, as perftest's send_lat/write_lat; lower is better. */
    LATENCY("µs", false);

    private final String unit;
    private final boolean higherIsBetter;

    Kind(String unit, boolean higherIsBetter) {
        this.unit = unit;
        this.higherIsBetter = higherIsBetter;
    }

    public String unit() {
        return unit;
    }

    public boolean higherIsBetter() {
        return higherIsBetter;
    }
}
