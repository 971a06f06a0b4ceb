package org.jrdma.ibv.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.util.List;

/**
 * The librdmacm structs the native connection manager touches, as {@code <rdma/rdma_cma.h>}
 * (rdma-core 44, LP64) and the socket headers lay them out. All are complete: jrdma allocates the
 * sockaddrs and rdma_conn_param, and reads rdma_cm_id and rdma_cm_event, which librdmacm
 * allocates, through segments of their full size. RdmaCmLayoutTest compiles
 * {@code src/test/c/rdma_cm_layouts.c} against the installed headers and compares every named
 * field and size here with C's, so these are proven, not assumed.
 *
 * <p>Field names are the headers'. The address unions of {@code struct rdma_addr} are laid out by
 * their {@code sockaddr_storage} member, the one that gives the union its size; jrdma reads the
 * family at its start and then the sockaddr_in or sockaddr_in6 over it.
 */
public final class RdmaCmLayouts {
    private RdmaCmLayouts() {
    }

    private static StructLayout struct(String name, MemoryLayout... fields) {
        return MemoryLayout.structLayout(fields).withName(name);
    }

    private static MemoryLayout bytes(String name, long n) {
        return MemoryLayout.sequenceLayout(n, JAVA_BYTE).withName(name);
    }

    /** Network byte order fields are read as bytes (sin_port, sin_addr): no byte-order mistakes. */
    public static final StructLayout SOCKADDR_IN = struct("sockaddr_in",
            JAVA_SHORT.withName("sin_family"), bytes("sin_port", 2), bytes("sin_addr", 4), MemoryLayout.paddingLayout(8));

    public static final StructLayout SOCKADDR_IN6 = struct("sockaddr_in6",
            JAVA_SHORT.withName("sin6_family"), bytes("sin6_port", 2), JAVA_INT.withName("sin6_flowinfo"),
            bytes("sin6_addr", 16), JAVA_INT.withName("sin6_scope_id"));

    /** Only its size matters: what a union of socket addresses holds. */
    public static final StructLayout SOCKADDR_STORAGE = struct("sockaddr_storage", MemoryLayout.paddingLayout(128));

    public static final StructLayout RDMA_EVENT_CHANNEL = struct("rdma_event_channel", JAVA_INT.withName("fd"));

    /** struct rdma_addr: the two address unions, then struct rdma_ib_addr (two GIDs and a P_Key, unread). */
    private static final StructLayout RDMA_ADDR = struct("rdma_addr",
            bytes("src_storage", 128), bytes("dst_storage", 128), MemoryLayout.paddingLayout(34 + 6));

    private static final StructLayout RDMA_ROUTE = struct("rdma_route",
            RDMA_ADDR.withName("addr"), ADDRESS.withName("path_rec"), JAVA_INT.withName("num_paths"),
            MemoryLayout.paddingLayout(4));

    public static final StructLayout RDMA_CM_ID = struct("rdma_cm_id",
            ADDRESS.withName("verbs"), ADDRESS.withName("channel"), ADDRESS.withName("context"), ADDRESS.withName("qp"),
            RDMA_ROUTE.withName("route"), JAVA_INT.withName("ps"), JAVA_BYTE.withName("port_num"),
            MemoryLayout.paddingLayout(3), ADDRESS.withName("event"), ADDRESS.withName("send_cq_channel"),
            ADDRESS.withName("send_cq"), ADDRESS.withName("recv_cq_channel"), ADDRESS.withName("recv_cq"),
            ADDRESS.withName("srq"), ADDRESS.withName("pd"), JAVA_INT.withName("qp_type"), MemoryLayout.paddingLayout(4));

    public static final StructLayout RDMA_CONN_PARAM = struct("rdma_conn_param",
            ADDRESS.withName("private_data"), JAVA_BYTE.withName("private_data_len"),
            JAVA_BYTE.withName("responder_resources"), JAVA_BYTE.withName("initiator_depth"),
            JAVA_BYTE.withName("flow_control"), JAVA_BYTE.withName("retry_count"), JAVA_BYTE.withName("rnr_retry_count"),
            JAVA_BYTE.withName("srq"), MemoryLayout.paddingLayout(1), JAVA_INT.withName("qp_num"),
            MemoryLayout.paddingLayout(4));

    public static final StructLayout RDMA_UD_PARAM = struct("rdma_ud_param",
            ADDRESS.withName("private_data"), JAVA_BYTE.withName("private_data_len"), MemoryLayout.paddingLayout(7),
            IbvLayouts.IBV_AH_ATTR.withName("ah_attr"), JAVA_INT.withName("qp_num"), JAVA_INT.withName("qkey"));

    /** The param union: its conn and ud members as C names them (param.conn, param.ud). */
    private static final MemoryLayout PARAM = MemoryLayout.unionLayout(RDMA_CONN_PARAM.withName("conn"),
            RDMA_UD_PARAM.withName("ud")).withName("param");

    public static final StructLayout RDMA_CM_EVENT = struct("rdma_cm_event",
            ADDRESS.withName("id"), ADDRESS.withName("listen_id"), JAVA_INT.withName("event"), JAVA_INT.withName("status"),
            PARAM);

    public static final List<StructLayout> ALL = List.of(SOCKADDR_IN, SOCKADDR_IN6, SOCKADDR_STORAGE, RDMA_EVENT_CHANNEL,
            RDMA_CM_ID, RDMA_CONN_PARAM, RDMA_UD_PARAM, RDMA_CM_EVENT);

    /** Offset of a dotted member path ({@code route.addr.dst_storage}, {@code param.conn.qp_num}). */
    public static long offset(StructLayout layout, String path) {
        return IbvLayouts.offset(layout, path);
    }

    public static long size(StructLayout layout, String path) {
        return IbvLayouts.size(layout, path);
    }
}
