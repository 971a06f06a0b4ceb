package org.jrdma.verbs;

/** An RDMA device as ibv_get_device_list lists it. Opening it gives a {@link Context}. */
public interface Device {
    /** {@return the device name, e.g. {@code soft_lo} or {@code mlx5_0}; tools select it with {@code -d}} */
    String name();

    /** {@return the name of the provider that drives it, e.g. {@code soft} or {@code native}} */
    String provider();

    /** {@return the node GUID (ibv_get_device_guid), read as a big-endian number} */
    long guid();

    /** {@return a short human description (what a soft device is bound to, for example)} */
    String description();

    /**
     * ibv_open_device.
     *
     * @return a new context on the device; close it to release what was created from it
     * @throws VerbsException when the device cannot be opened (e.g. a soft device already open in another process)
     */
    Context open();

    /**
     * Opens the device only to query it, as ibv_devinfo does: query_device, query_port and
     * query_gid answer; creating resources may fail. Any number of programs may open a NIC, but
     * a provider whose open is exclusive — a soft device binds its address in one process at a
     * time — answers here even while another process has the device open. By default,
     * {@link #open()}.
     *
     * @return a context on which at least the queries work
     */
    default Context openForQuery() {
        return open();
    }

    /**
     * The device's hardware counters as {@code rdma statistic} shows them — packets, bytes,
     * retransmissions, NAKs by kind, duplicates, drops by reason — summed over every process on
     * the host that uses the device; names are the provider's (lower case, snake case). Empty
     * when the provider keeps none. Does not open the device.
     *
     * @return counter names to values
     */
    default java.util.Map<String, Long> counters() {
        return java.util.Map.of();
    }
}
