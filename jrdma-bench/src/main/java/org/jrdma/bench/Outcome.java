package org.jrdma.bench;

/** What one run of one side gave: a figure (in the shape's unit) or the reason it has none. */
public sealed interface Outcome {
    /**
     * @param value            MiB/s for bandwidth, µs one-way (the median) for latency
     * @param allocBytesPerOp  heap bytes allocated per operation, NaN when not reported
     * @param p99Us            latency: the 99th percentile, µs one-way; NaN for bandwidth or when not reported
     * @param p999Us           latency: the 99.9th percentile, µs one-way; NaN likewise
     * @param cpuSeconds       CPU (user + system) of the run's two processes together, NaN when not measured
     * @param gibMoved         bandwidth: GiB the run moved (what {@code cpuSeconds} is divided by), NaN for latency
     */
    record Ok(double value, double allocBytesPerOp, double p99Us, double p999Us, double cpuSeconds, double gibMoved)
            implements Outcome {
        public Ok {
            if (!(value > 0) || Double.isInfinite(value)) {
                throw new IllegalArgumentException("a measured figure must be finite and > 0, got " + value);
            }
        }

        public Ok(double value, double allocBytesPerOp) {
            this(value, allocBytesPerOp, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }

        /** This outcome with its tail percentiles. */
        public Ok withTails(double p99, double p999) {
            return new Ok(value, allocBytesPerOp, p99, p999, cpuSeconds, gibMoved);
        }

        /** This outcome with the CPU its processes used and the GiB they moved. */
        public Ok withCpu(double seconds, double gib) {
            return new Ok(value, allocBytesPerOp, p99Us, p999Us, seconds, gib);
        }

        /** CPU seconds per GiB moved; NaN unless both are known and something moved. */
        public double cpuSecondsPerGiB() {
            return cpuSeconds >= 0 && gibMoved > 0 ? cpuSeconds / gibMoved : Double.NaN;
        }
    }

    /** @param reason short, for the table: "timeout", "exit 1: …" */
    record Failed(String reason) implements Outcome {
    }

    String TIMEOUT = "timeout";

    static Ok ok(double value, double allocBytesPerOp) {
        return new Ok(value, allocBytesPerOp);
    }

    static Outcome failed(String reason) {
        return new Failed(reason);
    }
}
