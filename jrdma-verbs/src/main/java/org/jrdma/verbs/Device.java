package org.jrdma.verbs;

/** An RDMA device as ibv_get_device_list lists it. Opening it gives a {@link Context}. */
public interface Device {
    /** The device name, e.g. {@code soft_lo} or {@code mlx5_0}; tools select it with {@code -d}. */
    String name();

    /** The provider that drives it, e.g. {@code soft} or {@code native}. */
    String provider();

    /** The node GUID. */
    long guid();

    /** A short human description (what a soft device is bound to, for example). */
    String description();

    /** ibv_open_device. */
    Context open();

    /**
     * The device's hardware counters as {@code rdma statistic} shows them — packets, bytes,
     * retransmissions, NAKs by kind, duplicates, drops by reason — summed over every process on
     * the host that uses the device; names are the provider's (lower case, snake case). Empty
     * when the provider keeps none. Does not open the device.
     */
    default java.util.Map<String, Long> counters() {
        return java.util.Map.of();
    }
}
