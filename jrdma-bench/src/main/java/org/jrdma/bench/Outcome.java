package org.jrdma.bench;

/** What one run of one side gave: a figure (in the shape's unit) or the reason it has none. */
public sealed interface Outcome {
    /**
     * @param value            MiB/s for bandwidth, µs one-way for latency
     * @param allocBytesPerOp  heap bytes allocated per operation, NaN when not reported
     */
    record Ok(double value, double allocBytesPerOp) implements Outcome {
        public Ok {
            if (!(value > 0) || Double.isInfinite(value)) {
                throw new IllegalArgumentException("a measured figure must be finite and > 0, got " + value);
            }
        }
    }

    /** @param reason short, for the table: "timeout", "exit 1: …" */
    record Failed(String reason) implements Outcome {
    }

    String TIMEOUT = "timeout";

    static Outcome ok(double value, double allocBytesPerOp) {
        return new Ok(value, allocBytesPerOp);
    }

    static Outcome failed(String reason) {
        return new Failed(reason);
    }
}
