package org.jrdma.ibv.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Optional;

/**
 * The exported functions of {@code libibverbs.so.1}, looked up by name when this class is first
 * used (never linked at build time). Method handles are named {@code name$mh}. Calls that return a
 * pointer capture errno ({@link Linker.Option#captureCallState}): the caller passes a segment of
 * {@link #CALL_STATE} first. Calls that return an int return the errno (or -1 and set errno).
 *
 * <p>Load it only after {@link #loadFailure()} is null: that is the one door, and it says why not.
 */
public final class Ibv {
    public static final String LIBRARY = "libibverbs.so.1";
    static final Linker LINKER = Linker.nativeLinker();
    public static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option ERRNO_OPT = Linker.Option.captureCallState("errno");

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

    private Ibv() {
    }

    /** Why the library could not be loaded, or null. Does not trigger {@link Fn} (no symbol lookups). */
    public static Throwable loadFailure() {
        return LOAD_FAILURE;
    }

    /** errno from a capture segment. */
    public static int errno(MemorySegment callState) {
        return (int) ERRNO.get(callState, 0L);
    }

    static Optional<MemorySegment> find(String name) {
        return LIB.find(name);
    }

    private static MethodHandle fn(String name, FunctionDescriptor fd, Linker.Option... options) {
        return LINKER.downcallHandle(LIB.findOrThrow(name), fd, options);
    }

    private static MethodHandle withErrno(String name, FunctionDescriptor fd) {
        return fn(name, fd, ERRNO_OPT);
    }

    /** The handles, resolved on first use of any (after the library loaded). */
    public static final class Fn {
        private Fn() {
        }

        // struct ibv_device **ibv_get_device_list(int *num_devices)
        public static final MethodHandle ibv_get_device_list$mh =
                withErrno("ibv_get_device_list", FunctionDescriptor.of(ADDRESS, ADDRESS));
        public static final MethodHandle ibv_free_device_list$mh =
                fn("ibv_free_device_list", FunctionDescriptor.ofVoid(ADDRESS));
        public static final MethodHandle ibv_get_device_name$mh =
                fn("ibv_get_device_name", FunctionDescriptor.of(ADDRESS, ADDRESS));
        // __be64 ibv_get_device_guid(struct ibv_device *)
        public static final MethodHandle ibv_get_device_guid$mh =
                fn("ibv_get_device_guid", FunctionDescriptor.of(JAVA_LONG, ADDRESS));
        public static final MethodHandle ibv_open_device$mh =
                withErrno("ibv_open_device", FunctionDescriptor.of(ADDRESS, ADDRESS));
        public static final MethodHandle ibv_close_device$mh =
                fn("ibv_close_device", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        public static final MethodHandle ibv_query_device$mh =
                withErrno("ibv_query_device", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        // the exported compat symbol, used only when the context is not extended (see ___ibv_query_port)
        public static final MethodHandle ibv_query_port$mh =
                withErrno("ibv_query_port", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_BYTE, ADDRESS));
        public static final MethodHandle ibv_query_gid$mh =
                withErrno("ibv_query_gid", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_BYTE, JAVA_INT, ADDRESS));
        public static final MethodHandle ibv_alloc_pd$mh =
                withErrno("ibv_alloc_pd", FunctionDescriptor.of(ADDRESS, ADDRESS));
        public static final MethodHandle ibv_dealloc_pd$mh =
                withErrno("ibv_dealloc_pd", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        // struct ibv_mr *ibv_reg_mr(struct ibv_pd *, void *addr, size_t length, int access)
        public static final MethodHandle ibv_reg_mr$mh =
                withErrno("ibv_reg_mr", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT));
        /** ibv_reg_mr_iova2 (rdma-core ≥ 29, what verbs.h's ibv_reg_mr macro calls), or null when absent. */
        public static final MethodHandle ibv_reg_mr_iova2$mh = find("ibv_reg_mr_iova2")
                .map(a -> LINKER.downcallHandle(a, FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG,
                        JAVA_LONG, JAVA_INT), ERRNO_OPT))
                .orElse(null);
        public static final MethodHandle ibv_dereg_mr$mh =
                withErrno("ibv_dereg_mr", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        public static final MethodHandle ibv_create_comp_channel$mh =
                withErrno("ibv_create_comp_channel", FunctionDescriptor.of(ADDRESS, ADDRESS));
        public static final MethodHandle ibv_destroy_comp_channel$mh =
                withErrno("ibv_destroy_comp_channel", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        // struct ibv_cq *ibv_create_cq(ctx, int cqe, void *cq_context, channel, int comp_vector)
        public static final MethodHandle ibv_create_cq$mh = withErrno("ibv_create_cq",
                FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
        public static final MethodHandle ibv_destroy_cq$mh =
                withErrno("ibv_destroy_cq", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        // int ibv_get_cq_event(channel, struct ibv_cq **cq, void **cq_context)
        public static final MethodHandle ibv_get_cq_event$mh =
                withErrno("ibv_get_cq_event", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        public static final MethodHandle ibv_ack_cq_events$mh =
                fn("ibv_ack_cq_events", FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT));
        public static final MethodHandle ibv_create_qp$mh =
                withErrno("ibv_create_qp", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
        public static final MethodHandle ibv_modify_qp$mh =
                withErrno("ibv_modify_qp", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
        public static final MethodHandle ibv_query_qp$mh = withErrno("ibv_query_qp",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS));
        public static final MethodHandle ibv_destroy_qp$mh =
                withErrno("ibv_destroy_qp", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        public static final MethodHandle ibv_create_srq$mh =
                withErrno("ibv_create_srq", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
        public static final MethodHandle ibv_modify_srq$mh =
                withErrno("ibv_modify_srq", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
        public static final MethodHandle ibv_query_srq$mh =
                withErrno("ibv_query_srq", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        public static final MethodHandle ibv_destroy_srq$mh =
                withErrno("ibv_destroy_srq", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        public static final MethodHandle ibv_create_ah$mh =
                withErrno("ibv_create_ah", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
        public static final MethodHandle ibv_destroy_ah$mh =
                withErrno("ibv_destroy_ah", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        public static final MethodHandle ibv_get_async_event$mh =
                withErrno("ibv_get_async_event", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        public static final MethodHandle ibv_ack_async_event$mh =
                fn("ibv_ack_async_event", FunctionDescriptor.ofVoid(ADDRESS));
        public static final MethodHandle ibv_fork_init$mh = fn("ibv_fork_init", FunctionDescriptor.of(JAVA_INT));
        // enum ibv_fork_status ibv_is_fork_initialized(void), rdma-core ≥ 35; null when absent
        public static final MethodHandle ibv_is_fork_initialized$mh = find("ibv_is_fork_initialized")
                .map(a -> LINKER.downcallHandle(a, FunctionDescriptor.of(JAVA_INT)))
                .orElse(null);
    }
}
