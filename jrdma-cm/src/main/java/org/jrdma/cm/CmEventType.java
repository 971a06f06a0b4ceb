package org.jrdma.cm;

/** {@code enum rdma_cm_event_type}: rdma_cm's names, and its numeric values in declaration order (ROCEV2-FACTS §7.2). */
public enum CmEventType {
    ADDR_RESOLVED, ADDR_ERROR, ROUTE_RESOLVED, ROUTE_ERROR, CONNECT_REQUEST, CONNECT_RESPONSE, CONNECT_ERROR,
    UNREACHABLE, REJECTED, ESTABLISHED, DISCONNECTED, DEVICE_REMOVAL, MULTICAST_JOIN, MULTICAST_ERROR,
    ADDR_CHANGE, TIMEWAIT_EXIT, ADDRINFO_RESOLVED, ADDRINFO_ERROR, USER, INTERNAL;

    /** The RDMA_CM_EVENT_* number. */
    public int value() {
        return ordinal();
    }
}
