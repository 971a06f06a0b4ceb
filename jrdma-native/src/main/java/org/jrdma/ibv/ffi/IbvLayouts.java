package org.jrdma.ibv.ffi;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.util.List;

/**
 * The libibverbs structs jrdma touches, as {@code <infiniband/verbs.h>} (rdma-core 44, x86-64 and
 * aarch64 LP64) lays them out. Structs jrdma allocates are complete (their size matters); objects
 * libibverbs allocates ({@code ibv_qp}, {@code ibv_context} …) are the prefix up to the last field
 * read. NativeLayoutTest compiles a C program against the installed headers and compares every
 * named field here with {@code offsetof}/{@code sizeof}, so these are proven, not assumed.
 *
 * <p>Field names are verbs.h's; a member of a nested or anonymous union is reached by a dotted
 * path ({@code wr.rdma.remote_addr}), as in C.
 */
public final class IbvLayouts {
    private IbvLayouts() {
    }

    /** The name prefix of a group that C declares without a name (an anonymous union). */
    static final String ANONYMOUS = "anonymous ";

    private static MemoryLayout u8(String name) {
        return JAVA_BYTE.withName(name);
    }

    private static MemoryLayout u16(String name) {
        return JAVA_SHORT.withName(name);
    }

    private static MemoryLayout u32(String name) {
        return JAVA_INT.withName(name);
    }

    private static MemoryLayout u64(String name) {
        return JAVA_LONG.withName(name);
    }

    private static MemoryLayout ptr(String name) {
        return ADDRESS.withName(name);
    }

    private static MemoryLayout pad(long bytes) {
        return MemoryLayout.paddingLayout(bytes);
    }

    private static StructLayout struct(String name, MemoryLayout... fields) {
        return MemoryLayout.structLayout(fields).withName(name);
    }

    public static final StructLayout IBV_DEVICE_ATTR = struct("ibv_device_attr",
            MemoryLayout.sequenceLayout(64, JAVA_BYTE).withName("fw_ver"),
            u64("node_guid"), u64("sys_image_guid"), u64("max_mr_size"), pad(8),
            u32("vendor_id"), u32("vendor_part_id"), u32("hw_ver"), u32("max_qp"), u32("max_qp_wr"),
            u32("device_cap_flags"), u32("max_sge"), pad(4), u32("max_cq"), u32("max_cqe"), u32("max_mr"),
            u32("max_pd"), u32("max_qp_rd_atom"), pad(8), u32("max_qp_init_rd_atom"), pad(4), u32("atomic_cap"),
            pad(8), u32("max_mw"), pad(36), u32("max_srq_wr"), pad(6), u8("local_ca_ack_delay"),
            u8("phys_port_cnt"), pad(4));

    public static final StructLayout IBV_PORT_ATTR = struct("ibv_port_attr",
            u32("state"), u32("max_mtu"), u32("active_mtu"), u32("gid_tbl_len"), pad(4), u32("max_msg_sz"),
            pad(10), u16("lid"), u16("sm_lid"), pad(8), u8("link_layer"), pad(5));

    public static final StructLayout IBV_GLOBAL_ROUTE = struct("ibv_global_route",
            MemoryLayout.sequenceLayout(16, JAVA_BYTE).withName("dgid"), u32("flow_label"), u8("sgid_index"),
            u8("hop_limit"), u8("traffic_class"), pad(1));

    public static final StructLayout IBV_AH_ATTR = struct("ibv_ah_attr",
            IBV_GLOBAL_ROUTE.withName("grh"), u16("dlid"), u8("sl"), u8("src_path_bits"), u8("static_rate"),
            u8("is_global"), u8("port_num"), pad(1));

    public static final StructLayout IBV_QP_CAP = struct("ibv_qp_cap",
            u32("max_send_wr"), u32("max_recv_wr"), u32("max_send_sge"), u32("max_recv_sge"),
            u32("max_inline_data"));

    public static final StructLayout IBV_QP_INIT_ATTR = struct("ibv_qp_init_attr",
            ptr("qp_context"), ptr("send_cq"), ptr("recv_cq"), ptr("srq"), IBV_QP_CAP.withName("cap"),
            u32("qp_type"), u32("sq_sig_all"), pad(4));

    /** alt_ah_attr, alt_pkey_index, sq_draining, alt_port_num, alt_timeout, rate_limit: not used. */
    public static final StructLayout IBV_QP_ATTR = struct("ibv_qp_attr",
            u32("qp_state"), u32("cur_qp_state"), u32("path_mtu"), pad(4), u32("qkey"), u32("rq_psn"),
            u32("sq_psn"), u32("dest_qp_num"), u32("qp_access_flags"), IBV_QP_CAP.withName("cap"),
            IBV_AH_ATTR.withName("ah_attr"), pad(32), u16("pkey_index"), pad(2), u8("en_sqd_async_notify"),
            pad(1), u8("max_rd_atomic"), u8("max_dest_rd_atomic"), u8("min_rnr_timer"), u8("port_num"),
            u8("timeout"), u8("retry_cnt"), u8("rnr_retry"), pad(11));

    public static final StructLayout IBV_SGE = struct("ibv_sge", u64("addr"), u32("length"), u32("lkey"));

    private static final StructLayout MW_BIND_INFO = struct("ibv_mw_bind_info",
            ptr("mr"), u64("addr"), u64("length"), u32("mw_access_flags"), pad(4));

    public static final StructLayout IBV_SEND_WR = struct("ibv_send_wr",
            u64("wr_id"), ptr("next"), ptr("sg_list"), u32("num_sge"), u32("opcode"), u32("send_flags"),
            MemoryLayout.unionLayout(u32("imm_data"), u32("invalidate_rkey")).withName(ANONYMOUS + "imm"),
            MemoryLayout.unionLayout(
                    struct("rdma", u64("remote_addr"), u32("rkey"), pad(4)),
                    struct("atomic", u64("remote_addr"), u64("compare_add"), u64("swap"), u32("rkey"), pad(4)),
                    struct("ud", ptr("ah"), u32("remote_qpn"), u32("remote_qkey"))).withName("wr"),
            pad(8), // qp_type.xrc.remote_srqn, padded
            MemoryLayout.unionLayout(
                    struct("bind_mw", ptr("mw"), u32("rkey"), pad(4), MW_BIND_INFO.withName("bind_info")),
                    struct("tso", ptr("hdr"), u16("hdr_sz"), u16("mss"), pad(4))).withName(ANONYMOUS + "bind_tso"));

    public static final StructLayout IBV_RECV_WR = struct("ibv_recv_wr",
            u64("wr_id"), ptr("next"), ptr("sg_list"), u32("num_sge"), pad(4));

    public static final StructLayout IBV_WC = struct("ibv_wc",
            u64("wr_id"), u32("status"), u32("opcode"), u32("vendor_err"), u32("byte_len"),
            MemoryLayout.unionLayout(u32("imm_data"), u32("invalidated_rkey")).withName(ANONYMOUS + "imm"),
            u32("qp_num"), u32("src_qp"), u32("wc_flags"), u16("pkey_index"), u16("slid"), u8("sl"),
            u8("dlid_path_bits"), pad(2));

    public static final StructLayout IBV_MW_BIND = struct("ibv_mw_bind",
            u64("wr_id"), u32("send_flags"), pad(4), MW_BIND_INFO.withName("bind_info"));

    public static final StructLayout IBV_SRQ_ATTR = struct("ibv_srq_attr",
            u32("max_wr"), u32("max_sge"), u32("srq_limit"));

    public static final StructLayout IBV_SRQ_INIT_ATTR = struct("ibv_srq_init_attr",
            ptr("srq_context"), IBV_SRQ_ATTR.withName("attr"), pad(4));

    public static final StructLayout IBV_ASYNC_EVENT = struct("ibv_async_event",
            MemoryLayout.unionLayout(ptr("cq"), ptr("qp"), ptr("srq"), ptr("wq"), u32("port_num"))
                    .withName("element"),
            u32("event_type"), pad(4));

    // ---- objects libibverbs allocates: prefixes ---------------------------------------------------

    public static final StructLayout IBV_MR = struct("ibv_mr",
            ptr("context"), ptr("pd"), ptr("addr"), u64("length"), u32("handle"), u32("lkey"), u32("rkey"));

    public static final StructLayout IBV_MW = struct("ibv_mw",
            ptr("context"), ptr("pd"), u32("rkey"), u32("handle"), u32("type"));

    public static final StructLayout IBV_PD = struct("ibv_pd", ptr("context"), u32("handle"));

    public static final StructLayout IBV_CQ = struct("ibv_cq",
            ptr("context"), ptr("channel"), ptr("cq_context"), u32("handle"), u32("cqe"));

    public static final StructLayout IBV_QP = struct("ibv_qp",
            ptr("context"), ptr("qp_context"), ptr("pd"), ptr("send_cq"), ptr("recv_cq"), ptr("srq"),
            u32("handle"), u32("qp_num"), u32("state"), u32("qp_type"));

    public static final StructLayout IBV_SRQ = struct("ibv_srq", ptr("context"));

    public static final StructLayout IBV_COMP_CHANNEL = struct("ibv_comp_channel",
            ptr("context"), u32("fd"), u32("refcnt"));

    /** {@code struct ibv_context_ops}: 35 function pointers; the data path calls eight of them. */
    private static final StructLayout IBV_CONTEXT_OPS = struct("ibv_context_ops",
            pad(7 * 8), ptr("alloc_mw"), ptr("bind_mw"), ptr("dealloc_mw"), pad(8), ptr("poll_cq"),
            ptr("req_notify_cq"), pad(7 * 8), ptr("post_srq_recv"), pad(4 * 8), ptr("post_send"),
            ptr("post_recv"), pad(5 * 8));

    public static final StructLayout IBV_CONTEXT = struct("ibv_context",
            ptr("device"), IBV_CONTEXT_OPS.withName("ops"), u32("cmd_fd"), u32("async_fd"),
            u32("num_comp_vectors"), pad(4), pad(40), ptr("abi_compat"));

    /**
     * {@code struct verbs_context}, the extended context that {@code ibv_context} is the last member
     * of (verbs.h "grows up"): found by container_of when {@code abi_compat} says so. Only its first
     * slot (query_port) and its tail are laid out; the slots in between are one padding block.
     */
    public static final StructLayout VERBS_CONTEXT = struct("verbs_context",
            ptr("query_port"), pad(312 - 8), u64("sz"), IBV_CONTEXT.withName("context"));

    /** Every layout NativeLayoutTest checks. */
    public static final List<StructLayout> ALL = List.of(IBV_DEVICE_ATTR, IBV_PORT_ATTR, IBV_GLOBAL_ROUTE,
            IBV_AH_ATTR, IBV_QP_CAP, IBV_QP_INIT_ATTR, IBV_QP_ATTR, IBV_SGE, IBV_SEND_WR, IBV_RECV_WR, IBV_WC,
            IBV_MW_BIND, IBV_SRQ_ATTR, IBV_SRQ_INIT_ATTR, IBV_ASYNC_EVENT, IBV_MR, IBV_MW, IBV_PD, IBV_CQ, IBV_QP,
            IBV_SRQ, IBV_COMP_CHANNEL, IBV_CONTEXT, VERBS_CONTEXT);

    /** The structs jrdma allocates itself, whose whole size must match. */
    public static final List<StructLayout> ALLOCATED = List.of(IBV_DEVICE_ATTR, IBV_PORT_ATTR, IBV_GLOBAL_ROUTE,
            IBV_AH_ATTR, IBV_QP_CAP, IBV_QP_INIT_ATTR, IBV_QP_ATTR, IBV_SGE, IBV_SEND_WR, IBV_RECV_WR, IBV_WC,
            IBV_MW_BIND, IBV_SRQ_ATTR, IBV_SRQ_INIT_ATTR, IBV_ASYNC_EVENT);

    /** The offset of a dotted member path, e.g. {@code offset(IBV_SEND_WR, "wr.rdma.rkey")}. */
    public static long offset(StructLayout layout, String path) {
        return layout.byteOffset(elements(layout, path));
    }

    /** The size of the member at a dotted path. */
    public static long size(StructLayout layout, String path) {
        return layout.select(elements(layout, path)).byteSize();
    }

    /**
     * A C member path as layout path elements. A member of an anonymous union ({@code imm_data} of
     * ibv_send_wr and ibv_wc, {@code bind_mw} of ibv_send_wr) sits in a group named
     * {@link #ANONYMOUS}… here, which C's member access skips and so does this.
     *
     * @throws IllegalArgumentException no such member
     */
    public static MemoryLayout.PathElement[] elements(StructLayout layout, String path) {
        List<MemoryLayout.PathElement> out = new java.util.ArrayList<>();
        MemoryLayout at = layout;
        for (String name : path.split("\\.")) {
            if (!(at instanceof GroupLayout group)) {
                throw new IllegalArgumentException(layout.name().orElse("?") + "." + path + ": " + name + " is not in a struct");
            }
            MemoryLayout member = member(group, name);
            if (member == null) {
                for (MemoryLayout m : group.memberLayouts()) {
                    if (m instanceof GroupLayout anonymous && anonymous.name().orElse("").startsWith(ANONYMOUS)
                            && member(anonymous, name) != null) {
                        out.add(groupElement(anonymous.name().orElseThrow()));
                        member = member(anonymous, name);
                        break;
                    }
                }
                if (member == null) {
                    throw new IllegalArgumentException(layout.name().orElse("?") + " has no member " + path);
                }
            }
            out.add(groupElement(name));
            at = member;
        }
        return out.toArray(MemoryLayout.PathElement[]::new);
    }

    private static MemoryLayout member(GroupLayout group, String name) {
        for (MemoryLayout m : group.memberLayouts()) {
            if (m.name().orElse(null) instanceof String n && n.equals(name)) {
                return m;
            }
        }
        return null;
    }
}
