/*
 * Prints the size of every librdmacm struct jrdma-native's connection manager lays out and the
 * offset and size of every field it reads or writes, as the installed <rdma/rdma_cma.h> (and the
 * socket headers it includes) define them — the same format as ibv_layouts.c:
 *
 *   struct <name> <sizeof>
 *   field <struct> <member path> <offsetof> <sizeof>
 *
 * RdmaCmLayoutTest compiles this with gcc, runs it and compares each line with
 * org.jrdma.ibv.ffi.RdmaCmLayouts. A separate file from ibv_layouts.c: rdma_cma.h is another
 * library's header (librdmacm-dev), and a machine may have one without the other.
 */
#include <stddef.h>
#include <stdio.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <rdma/rdma_cma.h>

#define S(s) printf("struct %s %zu\n", #s, sizeof(struct s))
#define F(s, m) printf("field %s %s %zu %zu\n", #s, #m, offsetof(struct s, m), sizeof(((struct s *)0)->m))

int main(void)
{
	S(sockaddr_in);
	F(sockaddr_in, sin_family);
	F(sockaddr_in, sin_port);
	F(sockaddr_in, sin_addr);

	S(sockaddr_in6);
	F(sockaddr_in6, sin6_family);
	F(sockaddr_in6, sin6_port);
	F(sockaddr_in6, sin6_flowinfo);
	F(sockaddr_in6, sin6_addr);
	F(sockaddr_in6, sin6_scope_id);

	S(sockaddr_storage);

	S(rdma_event_channel);
	F(rdma_event_channel, fd);

	S(rdma_cm_id);
	F(rdma_cm_id, verbs);
	F(rdma_cm_id, channel);
	F(rdma_cm_id, context);
	F(rdma_cm_id, qp);
	F(rdma_cm_id, route.addr.src_storage);
	F(rdma_cm_id, route.addr.dst_storage);
	F(rdma_cm_id, route.path_rec);
	F(rdma_cm_id, route.num_paths);
	F(rdma_cm_id, ps);
	F(rdma_cm_id, port_num);
	F(rdma_cm_id, event);
	F(rdma_cm_id, send_cq_channel);
	F(rdma_cm_id, send_cq);
	F(rdma_cm_id, recv_cq_channel);
	F(rdma_cm_id, recv_cq);
	F(rdma_cm_id, srq);
	F(rdma_cm_id, pd);
	F(rdma_cm_id, qp_type);

	S(rdma_conn_param);
	F(rdma_conn_param, private_data);
	F(rdma_conn_param, private_data_len);
	F(rdma_conn_param, responder_resources);
	F(rdma_conn_param, initiator_depth);
	F(rdma_conn_param, flow_control);
	F(rdma_conn_param, retry_count);
	F(rdma_conn_param, rnr_retry_count);
	F(rdma_conn_param, srq);
	F(rdma_conn_param, qp_num);

	S(rdma_ud_param);
	F(rdma_ud_param, private_data);
	F(rdma_ud_param, private_data_len);
	F(rdma_ud_param, ah_attr);
	F(rdma_ud_param, qp_num);
	F(rdma_ud_param, qkey);

	S(rdma_cm_event);
	F(rdma_cm_event, id);
	F(rdma_cm_event, listen_id);
	F(rdma_cm_event, event);
	F(rdma_cm_event, status);
	F(rdma_cm_event, param.conn);
	F(rdma_cm_event, param.ud);
	return 0;
}
