package org.jrdma.ibv.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * The function pointers of one context's {@code struct ibv_context_ops}, read once at open. In
 * verbs.h ibv_post_send, ibv_post_recv, ibv_poll_cq, ibv_req_notify_cq, ibv_post_srq_recv,
 * ibv_alloc_mw, ibv_bind_mw and ibv_dealloc_mw are static inline calls through this table (there is
 * no exported symbol to call), so jrdma calls the same slots; ibv_query_port goes through the
 * extended context's query_port with the struct's size, as {@code ___ibv_query_port} does.
 *
 * <p>The handles take the function pointer as their first argument
 * ({@link java.lang.foreign.Linker#downcallHandle(FunctionDescriptor, java.lang.foreign.Linker.Option...)}).
 */
public final class Ops {
    // int (*post_send)(struct ibv_qp *, struct ibv_send_wr *, struct ibv_send_wr **bad_wr) — same shape for recv/srq
    public static final MethodHandle POST$mh =
            Ibv.LINKER.downcallHandle(FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    // int (*poll_cq)(struct ibv_cq *, int num_entries, struct ibv_wc *)
    public static final MethodHandle POLL_CQ$mh =
            Ibv.LINKER.downcallHandle(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
    // int (*req_notify_cq)(struct ibv_cq *, int solicited_only)
    public static final MethodHandle REQ_NOTIFY_CQ$mh =
            Ibv.LINKER.downcallHandle(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
    // struct ibv_mw *(*alloc_mw)(struct ibv_pd *, enum ibv_mw_type)
    public static final MethodHandle ALLOC_MW$mh = Ibv.LINKER.downcallHandle(
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT), java.lang.foreign.Linker.Option.captureCallState("errno"));
    // int (*bind_mw)(struct ibv_qp *, struct ibv_mw *, struct ibv_mw_bind *)
    public static final MethodHandle BIND_MW$mh =
            Ibv.LINKER.downcallHandle(FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    // int (*dealloc_mw)(struct ibv_mw *)
    public static final MethodHandle DEALLOC_MW$mh =
            Ibv.LINKER.downcallHandle(FunctionDescriptor.of(JAVA_INT, ADDRESS));
    // int (*query_port)(struct ibv_context *, uint8_t port_num, struct ibv_port_attr *, size_t port_attr_len)
    public static final MethodHandle QUERY_PORT$mh =
            Ibv.LINKER.downcallHandle(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_BYTE, ADDRESS, JAVA_LONG));

    /** verbs.h {@code __VERBS_ABI_IS_EXTENDED}: {@code ((void *)UINTPTR_MAX)} in ibv_context.abi_compat. */
    private static final long VERBS_ABI_IS_EXTENDED = -1L;

    public final MemorySegment postSend;
    public final MemorySegment postRecv;
    public final MemorySegment postSrqRecv;
    public final MemorySegment pollCq;
    public final MemorySegment reqNotifyCq;
    public final MemorySegment allocMw;
    public final MemorySegment bindMw;
    public final MemorySegment deallocMw;
    /** verbs_context.query_port, or NULL when the context is not extended (then ibv_query_port). */
    public final MemorySegment queryPort;

    /** Reads the table of an open context. */
    public Ops(MemorySegment context) {
        MemorySegment ctx = context.reinterpret(IbvLayouts.IBV_CONTEXT.byteSize());
        postSend = slot(ctx, "ops.post_send");
        postRecv = slot(ctx, "ops.post_recv");
        postSrqRecv = slot(ctx, "ops.post_srq_recv");
        pollCq = slot(ctx, "ops.poll_cq");
        reqNotifyCq = slot(ctx, "ops.req_notify_cq");
        allocMw = slot(ctx, "ops.alloc_mw");
        bindMw = slot(ctx, "ops.bind_mw");
        deallocMw = slot(ctx, "ops.dealloc_mw");
        long abi = ctx.get(JAVA_LONG, IbvLayouts.offset(IbvLayouts.IBV_CONTEXT, "abi_compat"));
        if (abi == VERBS_ABI_IS_EXTENDED) {
            // container_of(ctx, struct verbs_context, context)
            long back = IbvLayouts.offset(IbvLayouts.VERBS_CONTEXT, "context");
            MemorySegment vctx = MemorySegment.ofAddress(ctx.address() - back)
                    .reinterpret(IbvLayouts.VERBS_CONTEXT.byteSize());
            long sz = vctx.get(JAVA_LONG, IbvLayouts.offset(IbvLayouts.VERBS_CONTEXT, "sz"));
            // verbs_get_ctx_op: the slot exists only if the provider's verbs_context reaches back that far
            boolean has = sz >= IbvLayouts.VERBS_CONTEXT.byteSize() - IbvLayouts.offset(IbvLayouts.VERBS_CONTEXT, "query_port");
            queryPort = has ? vctx.get(ADDRESS, IbvLayouts.offset(IbvLayouts.VERBS_CONTEXT, "query_port"))
                    : MemorySegment.NULL;
        } else {
            queryPort = MemorySegment.NULL;
        }
    }

    private static MemorySegment slot(MemorySegment ctx, String path) {
        return ctx.get(ADDRESS, IbvLayouts.offset(IbvLayouts.IBV_CONTEXT, path));
    }
}
