package org.jrdma.tools.rc;

import java.time.Duration;
import org.jrdma.bootstrap.MalformedMessageException;
import org.jrdma.bootstrap.Mtus;
import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.options.DeviceOption;
import org.jrdma.verbs.Mtu;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The flags every RC ping-pong tool shares, with ibv_rc_pingpong's names (STYLE.md §10):
 * {@code -d/--ib-dev}, {@code -g/--gid-idx}, {@code -s/--size}, {@code -n/--iters}, {@code -m/--mtu},
 * {@code -e/--events}.
 * A picocli mixin, so {@code demo} and {@code pingpong} parse and check them the same way.
 */
public final class RcFlags {
    @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    public DeviceOption device;

    @Option(names = {"-g", "--gid-idx"}, defaultValue = "0",
            description = "Local GID index (default: ${DEFAULT-VALUE}; a soft device has one GID, rxe's RoCEv2 IPv4 GID is 1).")
    public int gidIndex;

    @Option(names = {"-s", "--size"}, defaultValue = "4096", description = "Bytes per message (default: ${DEFAULT-VALUE}).")
    public int size;

    @Option(names = {"-n", "--iters"}, defaultValue = "1000", description = "Round trips (default: ${DEFAULT-VALUE}).")
    public int iters;

    @Option(names = {"-m", "--mtu"}, defaultValue = "1024", description = "Path MTU: 256, 512, 1024, 2048 or 4096 (default: ${DEFAULT-VALUE}).")
    public int mtu;

    @Option(names = {"-e", "--events"}, description = "Sleep on completion events instead of busy polling.")
    public boolean events;

    /** Checks the values (usage errors, exit 2) and builds the endpoint configuration. */
    public EndpointConfig toConfig(String bootstrap, int port, Duration timeout) {
        return toConfig(bootstrap, port, timeout, true);
    }

    public EndpointConfig toConfig(String bootstrap, int port, Duration timeout, boolean verify) {
        if (size < 0 || size > (8 << 20)) {
            throw usage("--size must be 0..8388608 (max_msg_sz), not " + size);
        }
        if (iters < 1) {
            throw usage("--iters must be at least 1, not " + iters);
        }
        if (gidIndex < 0) {
            throw usage("--gid-idx must be 0 or more, not " + gidIndex);
        }
        if (port < 0 || port > 65535) {
            throw usage("--port must be 0..65535, not " + port);
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw usage("--timeout-ms must be at least 1, not " + timeout.toMillis());
        }
        Mtu pathMtu;
        try {
            pathMtu = Mtus.of(mtu);
        } catch (MalformedMessageException e) {
            throw usage("--mtu " + e.problem()); // a flag is a usage error (exit 2), as the others here
        }
        return new EndpointConfig(device.name(), bootstrap, port, size, iters, events, pathMtu, timeout, verify).withGidIndex(gidIndex);
    }

    public CommandLine.ParameterException usage(String message) {
        return ExitCodes.usage(spec, message);
    }
}
