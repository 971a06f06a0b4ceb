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
     * Opens the device only to query it, as ibv_devinfo does: query_device, query_port and
     * query_gid answer; creating resources may fail. Any number of programs may open a NIC, but
     * a provider whose open is exclusive — a soft device binds its address in one process at a
     * time — answers here even while another process has the device open. By default,
     * {@link #open()}.
     */
    default Context openForQuery() {
        return open();
    }

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
