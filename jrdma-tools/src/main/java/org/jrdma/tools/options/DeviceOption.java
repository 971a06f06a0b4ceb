package org.jrdma.tools.options;

import picocli.CommandLine.Option;

/**
 * {@code -d/--ib-dev NAME}, as rdma-core's tools spell it, shared by demo, pingpong and perf:
 * the device to use, null for the first listed. (devinfo's {@code -d} only filters what it
 * shows, so it keeps its own.)
 */
public final class DeviceOption {
    @Option(names = {"-d", "--ib-dev"}, paramLabel = "NAME", description = "Device (default: the first; see 'jrdma devices').")
    String device;

    /** The device name given, or null for the first. */
    public String name() {
        return device;
    }
}
