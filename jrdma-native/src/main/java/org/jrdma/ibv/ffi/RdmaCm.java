package org.jrdma.ibv.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

/**
 * The exported functions of {@code librdmacm.so.1} (librdmacm.map, RDMACM_1.0), looked up by name
 * when this class is first used, never linked at build time. Every call captures errno: rdma_*
 * return -1 and set it (librdmacm's ERR()), or return NULL (rdma_create_event_channel).
 *
 * <p>Load {@link Fn} only after {@link #loadFailure()} is null: that is the one door, and it says why not.
 */
public final class RdmaCm {
    public static final String LIBRARY = "librdmacm.so.1";
    private static final Linker.Option ERRNO = Linker.Option.captureCallState("errno");
    private static final SymbolLookup LIB;
    private static final Throwable LOAD_FAILURE;

    static {
        SymbolLookup lib = null;
        Throwable failure = null;
        try {
            lib = SymbolLookup.libraryLookup(LIBRARY, Arena.global());
        } catch (IllegalArgumentException | IllegalCallerException e) {
            failure = e;
        }
        LIB = lib;
        LOAD_FAILURE = failure;
    }

    private RdmaCm() {
    }

    /** Why the library could not be loaded, or null. Touches no symbol. */
    public static Throwable loadFailure() {
        return LOAD_FAILURE;
    }

    private static MethodHandle fn(String name, FunctionDescriptor fd) {
        return Linker.nativeLinker().downcallHandle(LIB.findOrThrow(name), fd, ERRNO);
    }

    /** The handles, each taking the errno capture segment first. */
    public static final class Fn {
        private Fn() {
        }

        // struct rdma_event_channel *rdma_create_event_channel(void)
        static final MethodHandle rdma_create_event_channel$mh = fn("rdma_create_event_channel", FunctionDescriptor.of(ADDRESS));
        // void rdma_destroy_event_channel(struct rdma_event_channel *channel)
        static final MethodHandle rdma_destroy_event_channel$mh = fn("rdma_destroy_event_channel", FunctionDescriptor.ofVoid(ADDRESS));
        // int rdma_create_id(struct rdma_event_channel *, struct rdma_cm_id **, void *context, enum rdma_port_space)
        static final MethodHandle rdma_create_id$mh = fn("rdma_create_id",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT));
        // int rdma_destroy_id(struct rdma_cm_id *id)
        static final MethodHandle rdma_destroy_id$mh = fn("rdma_destroy_id", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        // int rdma_bind_addr(struct rdma_cm_id *id, struct sockaddr *addr)
        static final MethodHandle rdma_bind_addr$mh = fn("rdma_bind_addr", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        // int rdma_resolve_addr(struct rdma_cm_id *, struct sockaddr *src, struct sockaddr *dst, int timeout_ms)
        static final MethodHandle rdma_resolve_addr$mh = fn("rdma_resolve_addr",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT));
        // int rdma_resolve_route(struct rdma_cm_id *id, int timeout_ms)
        static final MethodHandle rdma_resolve_route$mh = fn("rdma_resolve_route", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        // int rdma_create_qp(struct rdma_cm_id *id, struct ibv_pd *pd, struct ibv_qp_init_attr *qp_init_attr)
        static final MethodHandle rdma_create_qp$mh = fn("rdma_create_qp", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        // void rdma_destroy_qp(struct rdma_cm_id *id)
        static final MethodHandle rdma_destroy_qp$mh = fn("rdma_destroy_qp", FunctionDescriptor.ofVoid(ADDRESS));
        // int rdma_connect(struct rdma_cm_id *id, struct rdma_conn_param *conn_param)
        static final MethodHandle rdma_connect$mh = fn("rdma_connect", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        // int rdma_listen(struct rdma_cm_id *id, int backlog)
        static final MethodHandle rdma_listen$mh = fn("rdma_listen", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        // int rdma_accept(struct rdma_cm_id *id, struct rdma_conn_param *conn_param)
        static final MethodHandle rdma_accept$mh = fn("rdma_accept", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        // int rdma_reject(struct rdma_cm_id *id, const void *private_data, uint8_t private_data_len)
        static final MethodHandle rdma_reject$mh = fn("rdma_reject", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_BYTE));
        // int rdma_establish(struct rdma_cm_id *id)
        static final MethodHandle rdma_establish$mh = fn("rdma_establish", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        // int rdma_disconnect(struct rdma_cm_id *id)
        static final MethodHandle rdma_disconnect$mh = fn("rdma_disconnect", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        // int rdma_get_cm_event(struct rdma_event_channel *channel, struct rdma_cm_event **event)
        static final MethodHandle rdma_get_cm_event$mh = fn("rdma_get_cm_event", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        // int rdma_ack_cm_event(struct rdma_cm_event *event)
        static final MethodHandle rdma_ack_cm_event$mh = fn("rdma_ack_cm_event", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    }
}
