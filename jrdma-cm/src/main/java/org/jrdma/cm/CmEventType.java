package org.jrdma.cm;

/** {@code enum rdma_cm_event_type}: rdma_cm's names, and its numeric values in declaration order (ROCEV2-FACTS §7.2). */
public enum CmEventType {
    /** {@code RDMA_CM_EVENT_ADDR_RESOLVED} (0): {@code rdma_resolve_addr} found the local device and the peer. */
    ADDR_RESOLVED,
    /** {@code RDMA_CM_EVENT_ADDR_ERROR} (1): address resolution failed. */
    ADDR_ERROR,
    /** {@code RDMA_CM_EVENT_ROUTE_RESOLVED} (2): {@code rdma_resolve_route} found a path. */
    ROUTE_RESOLVED,
    /** {@code RDMA_CM_EVENT_ROUTE_ERROR} (3): route resolution failed. */
    ROUTE_ERROR,
    /** {@code RDMA_CM_EVENT_CONNECT_REQUEST} (4): a REQ (or SIDR_REQ) arrived at a listening id. */
    CONNECT_REQUEST,
    /** {@code RDMA_CM_EVENT_CONNECT_RESPONSE} (5): a REP arrived at an id with no QP to take to RTS. */
    CONNECT_RESPONSE,
    /** {@code RDMA_CM_EVENT_CONNECT_ERROR} (6): setting up the connection failed. */
    CONNECT_ERROR,
    /** {@code RDMA_CM_EVENT_UNREACHABLE} (7): the peer did not answer the REQ or SIDR_REQ. */
    UNREACHABLE,
    /** {@code RDMA_CM_EVENT_REJECTED} (8): the peer sent a REJ; status is the reject reason. */
    REJECTED,
    /** {@code RDMA_CM_EVENT_ESTABLISHED} (9): the connection is up (RTU sent or received, or SIDR_REP accepted). */
    ESTABLISHED,
    /** {@code RDMA_CM_EVENT_DISCONNECTED} (10): a DREQ was sent or received and the connection is down. */
    DISCONNECTED,
    /** {@code RDMA_CM_EVENT_DEVICE_REMOVAL} (11): the id's device went away. */
    DEVICE_REMOVAL,
    /** {@code RDMA_CM_EVENT_MULTICAST_JOIN} (12): a multicast group was joined. */
    MULTICAST_JOIN,
    /** {@code RDMA_CM_EVENT_MULTICAST_ERROR} (13): a multicast join failed. */
    MULTICAST_ERROR,
    /** {@code RDMA_CM_EVENT_ADDR_CHANGE} (14): the id's address moved to another device or port. */
    ADDR_CHANGE,
    /** {@code RDMA_CM_EVENT_TIMEWAIT_EXIT} (15): the connection left timewait; its QP may be reused. */
    TIMEWAIT_EXIT,
    /** {@code RDMA_CM_EVENT_ADDRINFO_RESOLVED} (16): {@code rdma_resolve_addrinfo} finished. */
    ADDRINFO_RESOLVED,
    /** {@code RDMA_CM_EVENT_ADDRINFO_ERROR} (17): {@code rdma_resolve_addrinfo} failed. */
    ADDRINFO_ERROR,
    /** {@code RDMA_CM_EVENT_USER} (18): an event the application raised itself. */
    USER,
    /** {@code RDMA_CM_EVENT_INTERNAL} (19): librdmacm's internal event; the native backend also reports an event code it does not know as this. */
    INTERNAL;

    /**
     * The {@code RDMA_CM_EVENT_*} number.
     *
     * @return the value, 0..19
     */
    public int value() {
        return ordinal();
    }
}
