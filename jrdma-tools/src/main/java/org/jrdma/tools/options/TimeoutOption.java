package org.jrdma.tools.options;

import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * {@code --timeout-ms}, shared by demo, pingpong, perf and rping (rdma-core's tools wait
 * forever; ours fail with the step that did not finish). Each tool keeps its own default — a
 * peer on another host needs longer than two ends in one process — by constructing the mixin
 * with it: picocli takes a field's initial value as the default, shows it in --help and resets
 * to it before each parse. Each tool checks the range itself, as before (perf has a ceiling).
 */
public final class TimeoutOption {
    @Option(names = "--timeout-ms", description = "Deadline of each step of the TCP exchange (a server's accept too) or of the"
            + " connection manager, and of each wait for a completion (default: ${DEFAULT-VALUE}).")
    long timeoutMs;

    /** The option with this command's default; there is no constructor without one. */
    public TimeoutOption(long defaultMillis) {
        timeoutMs = defaultMillis;
    }

    public long millis() {
        return timeoutMs;
    }

    public Duration duration() {
        return Duration.ofMillis(timeoutMs);
    }
}
