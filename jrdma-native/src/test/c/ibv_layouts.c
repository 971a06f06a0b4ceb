/*
 * Prints the size of every libibverbs struct jrdma-native lays out and the offset and size of
 * every field it reads or writes, as the installed <infiniband/verbs.h> defines them:
 *
 *   struct <name> <sizeof>
 *   field <struct> <member path> <offsetof> <sizeof>
 *
 * NativeLayoutTest compiles this with gcc, runs it and compares each line with the Java layouts
 * in org.jrdma.ibv.ffi.IbvLayouts, so a header that moves a field fails the build by name.
 */
#include <stddef.h>
#include <stdio.h>
#include <infiniband/verbs.h>

#define S(s) printf("struct %s %zu\n", #s, sizeof(struct s))
#define F(s, m) printf("field %s %s %zu %zu\n", #s, #m, offsetof(struct s, m), sizeof(((struct s *)0)->m))

int main(void)
{
	S(ibv_device_attr);
	F(ibv_device_attr, fw_ver);
	F(ibv_device_attr, node_guid);
	F(ibv_device_attr, sys_image_guid);
	F(ibv_device_attr, max_mr_size);
	F(ibv_device_attr, vendor_id);
	F(ibv_device_attr, vendor_part_id);
	F(ibv_device_attr, hw_ver);
	F(ibv_device_attr, max_qp);
	F(ibv_device_attr, max_qp_wr);
	F(ibv_device_attr, device_cap_flags);
	F(ibv_device_attr, max_sge);
	F(ibv_device_attr, max_cq);
	F(ibv_device_attr, max_cqe);
	F(ibv_device_attr, max_mr);
	F(ibv_device_attr, max_pd);
	F(ibv_device_attr, max_qp_rd_atom);
	F(ibv_device_attr, max_qp_init_rd_atom);
	F(ibv_device_attr, atomic_cap);
	F(ibv_device_attr, max_mw);
	F(ibv_device_attr, max_srq_wr);
	F(ibv_device_attr, local_ca_ack_delay);
	F(ibv_device_attr, phys_port_cnt);

	S(ibv_port_attr);
	F(ibv_port_attr, state);
	F(ibv_port_attr, max_mtu);
	F(ibv_port_attr, active_mtu);
	F(ibv_port_attr, gid_tbl_len);
	F(ibv_port_attr, max_msg_sz);
	F(ibv_port_attr, lid);
	F(ibv_port_attr, sm_lid);
	F(ibv_port_attr, link_layer);

	S(ibv_global_route);
	F(ibv_global_route, dgid);
	F(ibv_global_route, flow_label);
	F(ibv_global_route, sgid_index);
	F(ibv_global_route, hop_limit);
	F(ibv_global_route, traffic_class);

	S(ibv_ah_attr);
	F(ibv_ah_attr, grh);
	F(ibv_ah_attr, dlid);
	F(ibv_ah_attr, sl);
	F(ibv_ah_attr, src_path_bits);
	F(ibv_ah_attr, static_rate);
	F(ibv_ah_attr, is_global);
	F(ibv_ah_attr, port_num);

	S(ibv_qp_cap);
	F(ibv_qp_cap, max_send_wr);
	F(ibv_qp_cap, max_recv_wr);
	F(ibv_qp_cap, max_send_sge);
	F(ibv_qp_cap, max_recv_sge);
	F(ibv_qp_cap, max_inline_data);

	S(ibv_qp_init_attr);
	F(ibv_qp_init_attr, qp_context);
	F(ibv_qp_init_attr, send_cq);
	F(ibv_qp_init_attr, recv_cq);
	F(ibv_qp_init_attr, srq);
	F(ibv_qp_init_attr, cap);
	F(ibv_qp_init_attr, qp_type);
	F(ibv_qp_init_attr, sq_sig_all);

	S(ibv_qp_attr);
	F(ibv_qp_attr, qp_state);
	F(ibv_qp_attr, cur_qp_state);
	F(ibv_qp_attr, path_mtu);
	F(ibv_qp_attr, qkey);
	F(ibv_qp_attr, rq_psn);
	F(ibv_qp_attr, sq_psn);
	F(ibv_qp_attr, dest_qp_num);
	F(ibv_qp_attr, qp_access_flags);
	F(ibv_qp_attr, cap);
	F(ibv_qp_attr, ah_attr);
	F(ibv_qp_attr, pkey_index);
	F(ibv_qp_attr, en_sqd_async_notify);
	F(ibv_qp_attr, max_rd_atomic);
	F(ibv_qp_attr, max_dest_rd_atomic);
	F(ibv_qp_attr, min_rnr_timer);
	F(ibv_qp_attr, port_num);
	F(ibv_qp_attr, timeout);
	F(ibv_qp_attr, retry_cnt);
	F(ibv_qp_attr, rnr_retry);

	S(ibv_sge);
	F(ibv_sge, addr);
	F(ibv_sge, length);
	F(ibv_sge, lkey);

	S(ibv_send_wr);
	F(ibv_send_wr, wr_id);
	F(ibv_send_wr, next);
	F(ibv_send_wr, sg_list);
	F(ibv_send_wr, num_sge);
	F(ibv_send_wr, opcode);
	F(ibv_send_wr, send_flags);
	F(ibv_send_wr, imm_data);
	F(ibv_send_wr, invalidate_rkey);
	F(ibv_send_wr, wr.rdma.remote_addr);
	F(ibv_send_wr, wr.rdma.rkey);
	F(ibv_send_wr, wr.atomic.remote_addr);
	F(ibv_send_wr, wr.atomic.compare_add);
	F(ibv_send_wr, wr.atomic.swap);
	F(ibv_send_wr, wr.atomic.rkey);
	F(ibv_send_wr, wr.ud.ah);
	F(ibv_send_wr, wr.ud.remote_qpn);
	F(ibv_send_wr, wr.ud.remote_qkey);
	F(ibv_send_wr, tso.hdr);
	F(ibv_send_wr, tso.hdr_sz);
	F(ibv_send_wr, tso.mss);
	F(ibv_send_wr, bind_mw.mw);
	F(ibv_send_wr, bind_mw.rkey);
	F(ibv_send_wr, bind_mw.bind_info.mr);
	F(ibv_send_wr, bind_mw.bind_info.addr);
	F(ibv_send_wr, bind_mw.bind_info.length);
	F(ibv_send_wr, bind_mw.bind_info.mw_access_flags);

	S(ibv_recv_wr);
	F(ibv_recv_wr, wr_id);
	F(ibv_recv_wr, next);
	F(ibv_recv_wr, sg_list);
	F(ibv_recv_wr, num_sge);

	S(ibv_wc);
	F(ibv_wc, wr_id);
	F(ibv_wc, status);
	F(ibv_wc, opcode);
	F(ibv_wc, vendor_err);
	F(ibv_wc, byte_len);
	F(ibv_wc, imm_data);
	F(ibv_wc, invalidated_rkey);
	F(ibv_wc, qp_num);
	F(ibv_wc, src_qp);
	F(ibv_wc, wc_flags);
	F(ibv_wc, pkey_index);
	F(ibv_wc, slid);
	F(ibv_wc, sl);
	F(ibv_wc, dlid_path_bits);

	S(ibv_mw_bind);
	F(ibv_mw_bind, wr_id);
	F(ibv_mw_bind, send_flags);
	F(ibv_mw_bind, bind_info.mr);
	F(ibv_mw_bind, bind_info.addr);
	F(ibv_mw_bind, bind_info.length);
	F(ibv_mw_bind, bind_info.mw_access_flags);

	S(ibv_srq_attr);
	F(ibv_srq_attr, max_wr);
	F(ibv_srq_attr, max_sge);
	F(ibv_srq_attr, srq_limit);

	S(ibv_srq_init_attr);
	F(ibv_srq_init_attr, srq_context);
	F(ibv_srq_init_attr, attr);

	S(ibv_async_event);
	F(ibv_async_event, element.cq);
	F(ibv_async_event, element.qp);
	F(ibv_async_event, element.srq);
	F(ibv_async_event, element.port_num);
	F(ibv_async_event, element.wq);
	F(ibv_async_event, event_type);

	/* Objects libibverbs allocates: only the fields jrdma reads. */
	F(ibv_mr, context);
	F(ibv_mr, pd);
	F(ibv_mr, addr);
	F(ibv_mr, length);
	F(ibv_mr, handle);
	F(ibv_mr, lkey);
	F(ibv_mr, rkey);
	F(ibv_mw, context);
	F(ibv_mw, pd);
	F(ibv_mw, rkey);
	F(ibv_mw, handle);
	F(ibv_mw, type);
	F(ibv_pd, context);
	F(ibv_pd, handle);
	F(ibv_cq, context);
	F(ibv_cq, channel);
	F(ibv_cq, cq_context);
	F(ibv_cq, handle);
	F(ibv_cq, cqe);
	F(ibv_qp, context);
	F(ibv_qp, qp_context);
	F(ibv_qp, pd);
	F(ibv_qp, send_cq);
	F(ibv_qp, recv_cq);
	F(ibv_qp, srq);
	F(ibv_qp, handle);
	F(ibv_qp, qp_num);
	F(ibv_qp, state);
	F(ibv_qp, qp_type);
	F(ibv_srq, context);
	F(ibv_comp_channel, context);
	F(ibv_comp_channel, fd);
	F(ibv_comp_channel, refcnt);
	F(ibv_context, device);
	F(ibv_context, cmd_fd);
	F(ibv_context, async_fd);
	F(ibv_context, num_comp_vectors);
	F(ibv_context, abi_compat);
	/* The data path is static inline in verbs.h: it calls these slots of the ops table. */
	F(ibv_context, ops.alloc_mw);
	F(ibv_context, ops.bind_mw);
	F(ibv_context, ops.dealloc_mw);
	F(ibv_context, ops.poll_cq);
	F(ibv_context, ops.req_notify_cq);
	F(ibv_context, ops.post_srq_recv);
	F(ibv_context, ops.post_send);
	F(ibv_context, ops.post_recv);
	/* ___ibv_query_port: verbs_context sits before the ibv_context (container_of). */
	S(verbs_context);
	F(verbs_context, query_port);
	F(verbs_context, sz);
	F(verbs_context, context);
	return 0;
}
