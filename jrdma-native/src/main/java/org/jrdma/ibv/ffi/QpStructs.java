package org.jrdma.ibv.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.jrdma.ibv.ffi.IbvLayouts.IBV_AH_ATTR;
import static org.jrdma.ibv.ffi.IbvLayouts.IBV_QP_ATTR;
import static org.jrdma.ibv.ffi.IbvLayouts.IBV_QP_CAP;
import static org.jrdma.ibv.ffi.IbvLayouts.IBV_QP_INIT_ATTR;
import static org.jrdma.ibv.ffi.IbvLayouts.offset;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.jrdma.ibv.ffi.Ibv.Fn;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;

/** ibv_qp_init_attr, ibv_qp_attr and ibv_ah_attr to and from the verbs API's classes; QP create/modify/query/destroy. */
public final class QpStructs {
    private QpStructs() {
    }

    /** What ibv_create_qp granted. */
    public record Created(MemorySegment qp, int qpNum, QpCap cap) {
    }

    public static Created createQp(MemorySegment pd, MemorySegment sendCq, MemorySegment recvCq, MemorySegment srq,
            QpType type, QpCap cap, boolean sqSigAll) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment init = a.allocate(IBV_QP_INIT_ATTR);
            init.set(ADDRESS, offset(IBV_QP_INIT_ATTR, "send_cq"), sendCq);
            init.set(ADDRESS, offset(IBV_QP_INIT_ATTR, "recv_cq"), recvCq);
            init.set(ADDRESS, offset(IBV_QP_INIT_ATTR, "srq"), srq);
            writeCap(init.asSlice(offset(IBV_QP_INIT_ATTR, "cap"), IBV_QP_CAP), cap);
            init.set(JAVA_INT, offset(IBV_QP_INIT_ATTR, "qp_type"), type.value());
            init.set(JAVA_INT, offset(IBV_QP_INIT_ATTR, "sq_sig_all"), sqSigAll ? 1 : 0);
            MemorySegment qp = IbvCalls.pointer("ibv_create_qp " + type,
                    state -> (MemorySegment) Fn.ibv_create_qp$mh.invokeExact(state, pd, init));
            // ibv_create_qp writes the granted capabilities back into init_attr.cap
            QpCap granted = readCap(init.asSlice(offset(IBV_QP_INIT_ATTR, "cap"), IBV_QP_CAP));
            return new Created(qp, qpNum(qp), granted);
        }
    }

    public static int qpNum(MemorySegment qp) {
        return qp.reinterpret(IbvLayouts.IBV_QP.byteSize()).get(JAVA_INT, offset(IbvLayouts.IBV_QP, "qp_num"));
    }

    public static void modifyQp(MemorySegment qp, QpAttr attr, int mask, String what) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment s = a.allocate(IBV_QP_ATTR);
            write(s, attr);
            IbvCalls.status("ibv_" + what, state -> (int) Fn.ibv_modify_qp$mh.invokeExact(state, qp, s, mask));
        }
    }

    /** ibv_query_qp of every attribute; the result has each attribute's mask bit set (informational). */
    public static QpAttr queryQp(MemorySegment qp) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment s = a.allocate(IBV_QP_ATTR);
            MemorySegment init = a.allocate(IBV_QP_INIT_ATTR);
            // every attribute but RATE_LIMIT, which libibverbs' query refuses with EOPNOTSUPP
            int all = org.jrdma.verbs.QpAttrMask.all() & ~org.jrdma.verbs.QpAttrMask.RATE_LIMIT.bit();
            IbvCalls.status("ibv_query_qp", state -> (int) Fn.ibv_query_qp$mh.invokeExact(state, qp, s, all, init));
            return read(s);
        }
    }

    public static int destroyQp(MemorySegment qp) {
        return IbvCalls.statusQuiet(state -> (int) Fn.ibv_destroy_qp$mh.invokeExact(state, qp));
    }

    static void writeCap(MemorySegment s, QpCap cap) {
        s.set(JAVA_INT, offset(IBV_QP_CAP, "max_send_wr"), cap.maxSendWr());
        s.set(JAVA_INT, offset(IBV_QP_CAP, "max_recv_wr"), cap.maxRecvWr());
        s.set(JAVA_INT, offset(IBV_QP_CAP, "max_send_sge"), cap.maxSendSge());
        s.set(JAVA_INT, offset(IBV_QP_CAP, "max_recv_sge"), cap.maxRecvSge());
        s.set(JAVA_INT, offset(IBV_QP_CAP, "max_inline_data"), cap.maxInlineData());
    }

    static QpCap readCap(MemorySegment s) {
        return new QpCap(s.get(JAVA_INT, offset(IBV_QP_CAP, "max_send_wr")),
                s.get(JAVA_INT, offset(IBV_QP_CAP, "max_recv_wr")), s.get(JAVA_INT, offset(IBV_QP_CAP, "max_send_sge")),
                s.get(JAVA_INT, offset(IBV_QP_CAP, "max_recv_sge")),
                s.get(JAVA_INT, offset(IBV_QP_CAP, "max_inline_data")));
    }

    private static void write(MemorySegment s, QpAttr attr) {
        s.set(JAVA_INT, offset(IBV_QP_ATTR, "qp_state"), attr.qpState().value());
        s.set(JAVA_INT, offset(IBV_QP_ATTR, "cur_qp_state"), attr.curQpState().value());
        s.set(JAVA_INT, offset(IBV_QP_ATTR, "path_mtu"), attr.pathMtu() == null ? 0 : attr.pathMtu().value());
        s.set(JAVA_INT, offset(IBV_QP_ATTR, "qkey"), attr.qkey());
        s.set(JAVA_INT, offset(IBV_QP_ATTR, "rq_psn"), attr.rqPsn());
        s.set(JAVA_INT, offset(IBV_QP_ATTR, "sq_psn"), attr.sqPsn());
        s.set(JAVA_INT, offset(IBV_QP_ATTR, "dest_qp_num"), attr.destQpNum());
        s.set(JAVA_INT, offset(IBV_QP_ATTR, "qp_access_flags"), attr.accessFlags());
        if (attr.cap() != null) {
            writeCap(s.asSlice(offset(IBV_QP_ATTR, "cap"), IBV_QP_CAP), attr.cap());
        }
        if (attr.ahAttr() != null) {
            writeAh(s.asSlice(offset(IBV_QP_ATTR, "ah_attr"), IBV_AH_ATTR), attr.ahAttr());
        }
        s.set(JAVA_SHORT, offset(IBV_QP_ATTR, "pkey_index"), (short) attr.pkeyIndex());
        s.set(JAVA_BYTE, offset(IBV_QP_ATTR, "en_sqd_async_notify"), (byte) (attr.enSqdAsyncNotify() ? 1 : 0));
        s.set(JAVA_BYTE, offset(IBV_QP_ATTR, "max_rd_atomic"), (byte) Math.min(attr.maxRdAtomic(), 255));
        s.set(JAVA_BYTE, offset(IBV_QP_ATTR, "max_dest_rd_atomic"), (byte) Math.min(attr.maxDestRdAtomic(), 255));
        s.set(JAVA_BYTE, offset(IBV_QP_ATTR, "min_rnr_timer"), (byte) attr.minRnrTimer());
        s.set(JAVA_BYTE, offset(IBV_QP_ATTR, "port_num"), (byte) attr.port());
        s.set(JAVA_BYTE, offset(IBV_QP_ATTR, "timeout"), (byte) attr.timeout());
        s.set(JAVA_BYTE, offset(IBV_QP_ATTR, "retry_cnt"), (byte) attr.retryCnt());
        s.set(JAVA_BYTE, offset(IBV_QP_ATTR, "rnr_retry"), (byte) attr.rnrRetry());
    }

    private static QpAttr read(MemorySegment s) {
        QpAttr a = new QpAttr()
                .state(state(s.get(JAVA_INT, offset(IBV_QP_ATTR, "qp_state"))))
                .curState(state(s.get(JAVA_INT, offset(IBV_QP_ATTR, "cur_qp_state"))))
                .qkey(s.get(JAVA_INT, offset(IBV_QP_ATTR, "qkey")))
                .rqPsn(s.get(JAVA_INT, offset(IBV_QP_ATTR, "rq_psn")))
                .sqPsn(s.get(JAVA_INT, offset(IBV_QP_ATTR, "sq_psn")))
                .destQpNum(s.get(JAVA_INT, offset(IBV_QP_ATTR, "dest_qp_num")))
                .accessFlags(s.get(JAVA_INT, offset(IBV_QP_ATTR, "qp_access_flags")))
                .cap(readCap(s.asSlice(offset(IBV_QP_ATTR, "cap"), IBV_QP_CAP)))
                .ahAttr(readAh(s.asSlice(offset(IBV_QP_ATTR, "ah_attr"), IBV_AH_ATTR)))
                .pkeyIndex(Short.toUnsignedInt(s.get(JAVA_SHORT, offset(IBV_QP_ATTR, "pkey_index"))))
                .enSqdAsyncNotify(s.get(JAVA_BYTE, offset(IBV_QP_ATTR, "en_sqd_async_notify")) != 0)
                .maxRdAtomic(u8(s, "max_rd_atomic"))
                .maxDestRdAtomic(u8(s, "max_dest_rd_atomic"))
                .minRnrTimer(u8(s, "min_rnr_timer"))
                .port(u8(s, "port_num"))
                .timeout(u8(s, "timeout"))
                .retryCnt(u8(s, "retry_cnt"))
                .rnrRetry(u8(s, "rnr_retry"));
        int mtu = s.get(JAVA_INT, offset(IBV_QP_ATTR, "path_mtu"));
        if (mtu >= 1 && mtu <= 5) {
            a.pathMtu(Mtu.fromValue(mtu));
        }
        return a;
    }

    private static int u8(MemorySegment s, String field) {
        return Byte.toUnsignedInt(s.get(JAVA_BYTE, offset(IBV_QP_ATTR, field)));
    }

    private static QpState state(int v) {
        for (QpState st : QpState.values()) {
            if (st.value() == v) {
                return st;
            }
        }
        return QpState.UNKNOWN;
    }

    public static void writeAh(MemorySegment s, AhAttr ah) {
        MemorySegment.copy(ah.dgid.toBytes(), 0, s, JAVA_BYTE, offset(IBV_AH_ATTR, "grh.dgid"), Gid.BYTES);
        s.set(JAVA_INT, offset(IBV_AH_ATTR, "grh.flow_label"), ah.flowLabel);
        s.set(JAVA_BYTE, offset(IBV_AH_ATTR, "grh.sgid_index"), (byte) ah.sgidIndex);
        s.set(JAVA_BYTE, offset(IBV_AH_ATTR, "grh.hop_limit"), (byte) ah.hopLimit);
        s.set(JAVA_BYTE, offset(IBV_AH_ATTR, "grh.traffic_class"), (byte) ah.trafficClass);
        s.set(JAVA_SHORT, offset(IBV_AH_ATTR, "dlid"), (short) ah.dlid);
        s.set(JAVA_BYTE, offset(IBV_AH_ATTR, "sl"), (byte) ah.sl);
        s.set(JAVA_BYTE, offset(IBV_AH_ATTR, "src_path_bits"), (byte) ah.srcPathBits);
        s.set(JAVA_BYTE, offset(IBV_AH_ATTR, "static_rate"), (byte) ah.staticRate);
        s.set(JAVA_BYTE, offset(IBV_AH_ATTR, "is_global"), (byte) (ah.isGlobal ? 1 : 0));
        s.set(JAVA_BYTE, offset(IBV_AH_ATTR, "port_num"), (byte) ah.portNum);
    }

    static AhAttr readAh(MemorySegment s) {
        AhAttr ah = new AhAttr();
        byte[] gid = new byte[Gid.BYTES];
        MemorySegment.copy(s, JAVA_BYTE, offset(IBV_AH_ATTR, "grh.dgid"), gid, 0, Gid.BYTES);
        ah.dgid = Gid.of(gid);
        ah.flowLabel = s.get(JAVA_INT, offset(IBV_AH_ATTR, "grh.flow_label"));
        ah.sgidIndex = Byte.toUnsignedInt(s.get(JAVA_BYTE, offset(IBV_AH_ATTR, "grh.sgid_index")));
        ah.hopLimit = Byte.toUnsignedInt(s.get(JAVA_BYTE, offset(IBV_AH_ATTR, "grh.hop_limit")));
        ah.trafficClass = Byte.toUnsignedInt(s.get(JAVA_BYTE, offset(IBV_AH_ATTR, "grh.traffic_class")));
        ah.dlid = Short.toUnsignedInt(s.get(JAVA_SHORT, offset(IBV_AH_ATTR, "dlid")));
        ah.sl = Byte.toUnsignedInt(s.get(JAVA_BYTE, offset(IBV_AH_ATTR, "sl")));
        ah.srcPathBits = Byte.toUnsignedInt(s.get(JAVA_BYTE, offset(IBV_AH_ATTR, "src_path_bits")));
        ah.staticRate = Byte.toUnsignedInt(s.get(JAVA_BYTE, offset(IBV_AH_ATTR, "static_rate")));
        ah.isGlobal = s.get(JAVA_BYTE, offset(IBV_AH_ATTR, "is_global")) != 0;
        ah.portNum = Byte.toUnsignedInt(s.get(JAVA_BYTE, offset(IBV_AH_ATTR, "port_num")));
        return ah;
    }
}
