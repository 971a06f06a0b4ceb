package org.jrdma.cm;

import org.jrdma.cm.wire.CmCodec;
import org.jrdma.cm.wire.CmDefaults;
import org.jrdma.cm.wire.CmaHeader;
import org.jrdma.cm.wire.Dreq;
import org.jrdma.cm.wire.Drep;
import org.jrdma.cm.wire.PathInfo;
import org.jrdma.cm.wire.Rej;
import org.jrdma.cm.wire.Rep;
import org.jrdma.cm.wire.Req;
import org.jrdma.cm.wire.Rtu;
import org.jrdma.cm.wire.SidrRep;
import org.jrdma.cm.wire.SidrReq;
import org.jrdma.verbs.Gid;

/**
 * The CM messages this side sends, filled as the kernel fills them (§7.8), encoded as MADs.
 * The one place that knows the codec's record layouts.
 */
final class CmMessages {
    static final int PKEY = 0xFFFF;
    /** The permissive LID RoCEv2 puts in a REQ when the hop limit is above 1 (§7.8). */
    static final int PERMISSIVE_LID = 0xFFFF;
    /** SIDR_REP statuses (K-cm ib_cm_sidr_status). */
    static final int SIDR_SUCCESS = 0;
    static final int SIDR_UNSUPPORTED = 1;
    static final int SIDR_REJECT = 2;

    private CmMessages() {
    }

    static byte[] req(CmConn c, long serviceId, CmaHeader cma, byte[] userData, int qpn, int transportType, int maxCmRetries) {
        CmAgent a = c.agent;
        PathInfo primary = new PathInfo(PERMISSIVE_LID, PERMISSIVE_LID, a.gid().toBytes(), Gid.of(c.peer).toBytes(), 0, 0, 0,
                CmQp.HOP_LIMIT, 0, false, c.ackTimeout);
        Req req = new Req(c.localCommId, 0, serviceId, a.deviceAttr().nodeGuid(), 0, qpn, c.responderResources, 0,
                c.initiatorDepth, 0, CmDefaults.CM_RESPONSE_TIMEOUT, transportType, c.flowControl, c.seq, CmDefaults.CM_RESPONSE_TIMEOUT,
                c.retryCount, PKEY, c.mtu.value(), false, c.rnrRetryCount, maxCmRetries, c.srq, 0, primary, PathInfo.NONE,
                false, cma.withUserData(userData));
        return CmCodec.encode(c.tid, req);
    }

    static byte[] rep(CmConn c, int qpn, int rnrRetryCount, byte[] userData) {
        Rep rep = new Rep(c.localCommId, c.remoteCommId, 0, qpn, 0, 0, c.seq, c.responderResources, c.initiatorDepth,
                c.agent.deviceAttr().localCaAckDelay(), 0, c.flowControl, rnrRetryCount, c.srq, c.agent.deviceAttr().nodeGuid(),
                userData);
        return CmCodec.encode(c.tid, rep);
    }

    static byte[] rtu(CmConn c) {
        return CmCodec.encode(c.tid, new Rtu(c.localCommId, c.remoteCommId, new byte[0]));
    }

    /** A REJ; {@code localCommId} is 0 when rejecting a REQ (§7.10). */
    static byte[] rej(long tid, int localCommId, int remoteCommId, int messageRejected, int reason, byte[] userData) {
        return CmCodec.encode(tid, new Rej(localCommId, remoteCommId, messageRejected, 0, reason, new byte[0], userData));
    }

    static byte[] dreq(CmConn c, long tid) {
        return CmCodec.encode(tid, new Dreq(c.localCommId, c.remoteCommId, c.remoteQpn, new byte[0]));
    }

    static byte[] drep(CmConn c) {
        return CmCodec.encode(c.dreqTid, new Drep(c.localCommId, c.remoteCommId, new byte[0]));
    }

    static byte[] sidrReq(CmConn c, long serviceId, CmaHeader cma, byte[] userData) {
        return CmCodec.encode(c.tid, new SidrReq(c.localCommId, PKEY, serviceId, cma.withUserData(userData)));
    }

    static byte[] sidrRep(long tid, int requestId, int status, int qpn, long serviceId, int qkey, byte[] userData) {
        return CmCodec.encode(tid, new SidrRep(requestId, status, 0, 0, qpn, serviceId, qkey, new byte[0], userData));
    }

    /** The whole private-data area of a received message, zero filled to {@code size} as the kernel reports it. */
    static byte[] padded(byte[] data, int size) {
        byte[] out = new byte[size];
        if (data != null) {
            System.arraycopy(data, 0, out, 0, Math.min(size, data.length));
        }
        return out;
    }
}
