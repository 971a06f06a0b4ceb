package org.jrdma.ibv.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.jrdma.ibv.ffi.IbvLayouts.IBV_QP_CAP;
import static org.jrdma.ibv.ffi.IbvLayouts.IBV_QP_INIT_ATTR;
import static org.jrdma.ibv.ffi.RdmaCmLayouts.RDMA_CM_EVENT;
import static org.jrdma.ibv.ffi.RdmaCmLayouts.RDMA_CM_ID;
import static org.jrdma.ibv.ffi.RdmaCmLayouts.RDMA_CONN_PARAM;
import static org.jrdma.ibv.ffi.RdmaCmLayouts.RDMA_EVENT_CHANNEL;
import static org.jrdma.ibv.ffi.RdmaCmLayouts.RDMA_UD_PARAM;
import static org.jrdma.ibv.ffi.RdmaCmLayouts.offset;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import org.jrdma.cm.CmError;
import org.jrdma.cm.CmException;
import org.jrdma.cm.ConnParam;
import org.jrdma.ibv.ffi.RdmaCm.Fn;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpType;

/**
 * librdmacm's calls on raw memory, for org.jrdma.ibv.cm: every failure is a {@link CmException}
 * naming the call and the errno ({@code rdma_resolve_addr: ENODEV (no such device)}). Segments of
 * librdmacm's own structs (rdma_cm_id, rdma_cm_event) are reinterpreted to their full, proven size.
 */
public final class CmCalls {
    private static final int EAGAIN = 11;

    private CmCalls() {
    }

    @FunctionalInterface
    private interface IntCall {
        int call(MemorySegment state) throws Throwable;
    }

    /** Runs an rdma_* call that returns 0, or -1 with errno set. */
    private static void status(String call, IntCall c) {
        int errno = statusQuiet(c);
        if (errno != 0) {
            throw failure(call, errno);
        }
    }

    /** The errno of a failed call, 0 on success. */
    private static int statusQuiet(IntCall c) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(Ibv.CALL_STATE);
            int rc = c.call(state);
            if (rc == 0) {
                return 0;
            }
            int e = rc == -1 ? Ibv.errno(state) : Math.abs(rc);
            return e == 0 ? 5 : e;
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** {@code rdma_connect: EINVAL (invalid argument)}, of the CmError that errno is. */
    public static CmException failure(String call, int errno) {
        CmError kind = switch (errno) {
            case 22 -> CmError.INVALID_ARGUMENT;
            case 98 -> CmError.ADDRESS_IN_USE;
            case 99 -> CmError.ADDRESS_NOT_AVAILABLE;
            case 101 -> CmError.NETWORK_UNREACHABLE;
            case 110 -> CmError.TIMED_OUT;
            case 111 -> CmError.CONNECTION_REFUSED;
            case 19 -> CmError.NO_DEVICE;
            case 9 -> CmError.CLOSED;
            default -> CmError.VERBS;
        };
        return new CmException(kind, call + ": " + Native.errnoText(errno));
    }

    // ---- channel ----

    public static MemorySegment createEventChannel() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(Ibv.CALL_STATE);
            MemorySegment ch = (MemorySegment) Fn.rdma_create_event_channel$mh.invokeExact(state);
            if (ch.equals(MemorySegment.NULL)) {
                int e = Ibv.errno(state);
                throw failure("rdma_create_event_channel", e == 0 ? 19 : e);
            }
            return ch.reinterpret(RDMA_EVENT_CHANNEL.byteSize());
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    public static int channelFd(MemorySegment channel) {
        return channel.get(JAVA_INT, offset(RDMA_EVENT_CHANNEL, "fd"));
    }

    public static void destroyEventChannel(MemorySegment channel) {
        try (Arena a = Arena.ofConfined()) {
            Fn.rdma_destroy_event_channel$mh.invokeExact(a.allocate(Ibv.CALL_STATE), channel);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * rdma_get_cm_event on a non-blocking channel: the event (a segment of its full size), or null
     * when none is ready (EAGAIN).
     */
    public static MemorySegment tryGetEvent(MemorySegment channel) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            int errno = statusQuiet(s -> (int) Fn.rdma_get_cm_event$mh.invokeExact(s, channel, out));
            if (errno == EAGAIN) {
                return null;
            }
            if (errno != 0) {
                throw failure("rdma_get_cm_event", errno);
            }
            return out.get(ADDRESS, 0).reinterpret(RDMA_CM_EVENT.byteSize());
        }
    }

    /** rdma_ack_cm_event; returns the errno (0), for paths that must not throw. */
    public static int ackEvent(MemorySegment event) {
        return statusQuiet(s -> (int) Fn.rdma_ack_cm_event$mh.invokeExact(s, event));
    }

    /** What an event says, copied out of librdmacm's memory (valid until the ack). */
    public record Event(MemorySegment id, MemorySegment listenId, int type, int status, byte[] privateData,
            int responderResources, int initiatorDepth, boolean flowControl, int retryCount, int rnrRetryCount, boolean srq,
            int qpNum, AhAttr ahAttr, int udQpNum, int qkey) {
        /** The peer's connection parameters as the API reports them. */
        public ConnParam connParam() {
            return new ConnParam(privateData, responderResources, initiatorDepth, retryCount & 7, rnrRetryCount & 7, flowControl, srq,
                    qpNum & 0xFFFFFF);
        }
    }

    /** Reads an event; {@code ud}: the id is of port space UDP, so param is rdma_ud_param. */
    public static Event read(MemorySegment e, boolean ud) {
        MemorySegment id = e.get(ADDRESS, offset(RDMA_CM_EVENT, "id")).reinterpret(RDMA_CM_ID.byteSize());
        MemorySegment listen = e.get(ADDRESS, offset(RDMA_CM_EVENT, "listen_id"));
        listen = listen.equals(MemorySegment.NULL) ? null : listen.reinterpret(RDMA_CM_ID.byteSize());
        int type = e.get(JAVA_INT, offset(RDMA_CM_EVENT, "event"));
        int status = e.get(JAVA_INT, offset(RDMA_CM_EVENT, "status"));
        if (ud) {
            MemorySegment p = e.asSlice(offset(RDMA_CM_EVENT, "param.ud"), RDMA_UD_PARAM);
            byte[] data = privateData(p.get(ADDRESS, offset(RDMA_UD_PARAM, "private_data")),
                    p.get(JAVA_BYTE, offset(RDMA_UD_PARAM, "private_data_len")));
            AhAttr ah = QpStructs.readAh(p.asSlice(offset(RDMA_UD_PARAM, "ah_attr"), IbvLayouts.IBV_AH_ATTR));
            return new Event(id, listen, type, status, data, 0, 0, false, 0, 0, false, 0, ah,
                    p.get(JAVA_INT, offset(RDMA_UD_PARAM, "qp_num")), p.get(JAVA_INT, offset(RDMA_UD_PARAM, "qkey")));
        }
        MemorySegment p = e.asSlice(offset(RDMA_CM_EVENT, "param.conn"), RDMA_CONN_PARAM);
        byte[] data = privateData(p.get(ADDRESS, offset(RDMA_CONN_PARAM, "private_data")),
                p.get(JAVA_BYTE, offset(RDMA_CONN_PARAM, "private_data_len")));
        return new Event(id, listen, type, status, data, u8(p, "responder_resources"), u8(p, "initiator_depth"),
                u8(p, "flow_control") != 0, u8(p, "retry_count"), u8(p, "rnr_retry_count"), u8(p, "srq") != 0,
                p.get(JAVA_INT, offset(RDMA_CONN_PARAM, "qp_num")), null, 0, 0);
    }

    private static int u8(MemorySegment p, String field) {
        return Byte.toUnsignedInt(p.get(JAVA_BYTE, offset(RDMA_CONN_PARAM, field)));
    }

    private static byte[] privateData(MemorySegment at, byte len) {
        int n = Byte.toUnsignedInt(len);
        if (n == 0 || at.equals(MemorySegment.NULL)) {
            return null;
        }
        return at.reinterpret(n).toArray(JAVA_BYTE);
    }

    // ---- ids ----

    /** rdma_create_id with a NULL context (jrdma finds its ids by address), in port space {@code ps}. */
    public static MemorySegment createId(MemorySegment channel, int ps) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            status("rdma_create_id", s -> (int) Fn.rdma_create_id$mh.invokeExact(s, channel, out, MemorySegment.NULL, ps));
            return out.get(ADDRESS, 0).reinterpret(RDMA_CM_ID.byteSize());
        }
    }

    /** rdma_destroy_id; the errno (0), for close paths that must not throw. */
    public static int destroyId(MemorySegment id) {
        return statusQuiet(s -> (int) Fn.rdma_destroy_id$mh.invokeExact(s, id));
    }

    public static void bindAddr(MemorySegment id, InetSocketAddress address) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment sa = SockAddrs.write(a, address);
            status("rdma_bind_addr " + SockAddrs.text(address), s -> (int) Fn.rdma_bind_addr$mh.invokeExact(s, id, sa));
        }
    }

    public static void resolveAddr(MemorySegment id, InetSocketAddress src, InetSocketAddress dst, int timeoutMs) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment from = src == null ? MemorySegment.NULL : SockAddrs.write(a, src);
            MemorySegment to = SockAddrs.write(a, dst);
            status("rdma_resolve_addr " + SockAddrs.text(dst),
                    s -> (int) Fn.rdma_resolve_addr$mh.invokeExact(s, id, from, to, timeoutMs));
        }
    }

    public static void resolveRoute(MemorySegment id, int timeoutMs) {
        status("rdma_resolve_route", s -> (int) Fn.rdma_resolve_route$mh.invokeExact(s, id, timeoutMs));
    }

    public static void listen(MemorySegment id, int backlog) {
        status("rdma_listen", s -> (int) Fn.rdma_listen$mh.invokeExact(s, id, backlog));
    }

    /** rdma_create_qp with these CQs, SRQ, type and capabilities; returns id->qp (rdma_create_qp moved it to INIT). */
    public static MemorySegment createQp(MemorySegment id, MemorySegment pd, MemorySegment sendCq, MemorySegment recvCq,
            MemorySegment srq, QpType type, QpCap cap, boolean sqSigAll) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment init = a.allocate(IBV_QP_INIT_ATTR);
            init.set(ADDRESS, IbvLayouts.offset(IBV_QP_INIT_ATTR, "send_cq"), sendCq);
            init.set(ADDRESS, IbvLayouts.offset(IBV_QP_INIT_ATTR, "recv_cq"), recvCq);
            init.set(ADDRESS, IbvLayouts.offset(IBV_QP_INIT_ATTR, "srq"), srq);
            QpStructs.writeCap(init.asSlice(IbvLayouts.offset(IBV_QP_INIT_ATTR, "cap"), IBV_QP_CAP), cap);
            init.set(JAVA_INT, IbvLayouts.offset(IBV_QP_INIT_ATTR, "qp_type"), type.value());
            init.set(JAVA_INT, IbvLayouts.offset(IBV_QP_INIT_ATTR, "sq_sig_all"), sqSigAll ? 1 : 0);
            status("rdma_create_qp " + type, s -> (int) Fn.rdma_create_qp$mh.invokeExact(s, id, pd, init));
        }
        return qp(id);
    }

    /** rdma_destroy_qp: for a QP rdma_create_qp made that jrdma could not wrap. */
    public static void destroyQp(MemorySegment id) {
        try (Arena a = Arena.ofConfined()) {
            Fn.rdma_destroy_qp$mh.invokeExact(a.allocate(Ibv.CALL_STATE), id);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** The event's id, listen_id (NULL but for CONNECT_REQUEST) and type, read before the rest (which depends on the id). */
    public static MemorySegment eventId(MemorySegment e) {
        return e.get(ADDRESS, offset(RDMA_CM_EVENT, "id"));
    }

    public static MemorySegment eventListenId(MemorySegment e) {
        return e.get(ADDRESS, offset(RDMA_CM_EVENT, "listen_id"));
    }

    public static int eventType(MemorySegment e) {
        return e.get(JAVA_INT, offset(RDMA_CM_EVENT, "event"));
    }

    /** id->qp, or NULL. */
    public static MemorySegment qp(MemorySegment id) {
        return id.get(ADDRESS, offset(RDMA_CM_ID, "qp"));
    }

    /**
     * Clears id->qp after the QP it named was destroyed through its wrapper, as rdma_destroy_qp does
     * after ibv_destroy_qp: librdmacm moves id->qp through its states (connect, accept, a REJ, a
     * disconnect), and must never touch a freed QP.
     */
    public static void forgetQp(MemorySegment id) {
        id.set(ADDRESS, offset(RDMA_CM_ID, "qp"), MemorySegment.NULL);
    }

    /** id->verbs (librdmacm's ibv_context of the id's device), or NULL while the id has none. */
    public static MemorySegment verbs(MemorySegment id) {
        return id.get(ADDRESS, offset(RDMA_CM_ID, "verbs"));
    }

    public static InetSocketAddress localAddress(MemorySegment id) {
        return SockAddrs.read(id.asSlice(offset(RDMA_CM_ID, "route.addr.src_storage"), 128));
    }

    public static InetSocketAddress peerAddress(MemorySegment id) {
        return SockAddrs.read(id.asSlice(offset(RDMA_CM_ID, "route.addr.dst_storage"), 128));
    }

    /** rdma_connect, rdma_accept: {@code p} as struct rdma_conn_param. */
    public static void connect(MemorySegment id, ConnParam p) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment cp = connParam(a, p);
            status("rdma_connect", s -> (int) Fn.rdma_connect$mh.invokeExact(s, id, cp));
        }
    }

    public static void accept(MemorySegment id, ConnParam p) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment cp = connParam(a, p);
            status("rdma_accept", s -> (int) Fn.rdma_accept$mh.invokeExact(s, id, cp));
        }
    }

    public static void reject(MemorySegment id, byte[] privateData) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment data = privateData.length == 0 ? MemorySegment.NULL : a.allocateFrom(JAVA_BYTE, privateData);
            byte len = (byte) privateData.length;
            status("rdma_reject", s -> (int) Fn.rdma_reject$mh.invokeExact(s, id, data, len));
        }
    }

    public static void establish(MemorySegment id) {
        status("rdma_establish", s -> (int) Fn.rdma_establish$mh.invokeExact(s, id));
    }

    public static void disconnect(MemorySegment id) {
        status("rdma_disconnect", s -> (int) Fn.rdma_disconnect$mh.invokeExact(s, id));
    }

    private static MemorySegment connParam(Arena a, ConnParam p) {
        MemorySegment cp = a.allocate(RDMA_CONN_PARAM);
        byte[] data = p.privateData();
        cp.set(ADDRESS, offset(RDMA_CONN_PARAM, "private_data"), data.length == 0 ? MemorySegment.NULL : a.allocateFrom(JAVA_BYTE, data));
        cp.set(JAVA_BYTE, offset(RDMA_CONN_PARAM, "private_data_len"), (byte) data.length);
        cp.set(JAVA_BYTE, offset(RDMA_CONN_PARAM, "responder_resources"), (byte) p.responderResources());
        cp.set(JAVA_BYTE, offset(RDMA_CONN_PARAM, "initiator_depth"), (byte) p.initiatorDepth());
        cp.set(JAVA_BYTE, offset(RDMA_CONN_PARAM, "flow_control"), (byte) (p.flowControl() ? 1 : 0));
        cp.set(JAVA_BYTE, offset(RDMA_CONN_PARAM, "retry_count"), (byte) p.retryCount());
        cp.set(JAVA_BYTE, offset(RDMA_CONN_PARAM, "rnr_retry_count"), (byte) p.rnrRetryCount());
        cp.set(JAVA_BYTE, offset(RDMA_CONN_PARAM, "srq"), (byte) (p.srq() ? 1 : 0));
        cp.set(JAVA_INT, offset(RDMA_CONN_PARAM, "qp_num"), p.qpNum());
        return cp;
    }
}
