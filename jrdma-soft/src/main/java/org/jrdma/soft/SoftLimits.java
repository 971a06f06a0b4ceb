package org.jrdma.soft;

import org.jrdma.soft.engine.QpTable;
import org.jrdma.soft.transport.TransportLimits;

/**
 * What a soft device advertises in query_device and enforces (REL-30: advertised and enforced
 * limits agree). Values follow rxe's rxe_param.h where it has one; those the transport stages
 * enforce themselves come from {@link TransportLimits}.
 */
public final class SoftLimits {
    public static final int MAX_QP = QpTable.MAX_QP;
    public static final int MAX_QP_WR = 1 << 14;
    public static final int MAX_SGE = TransportLimits.MAX_SGE;
    public static final int MAX_CQ = 1 << 14;
    public static final int MAX_CQE = (1 << 16) - 1;
    public static final int MAX_MR = 1 << 20;
    public static final int MAX_PD = 1 << 16;
    public static final int MAX_QP_RD_ATOM = 128;
    public static final int MAX_INLINE_DATA = 400;
    /** 8 MiB, rxe's advertised max_msg_sz; longer sends are refused at post time. */
    public static final int MAX_MSG_SIZE = TransportLimits.MAX_MSG_SIZE;
    public static final int LOCAL_CA_ACK_DELAY = 15;
    public static final long MAX_MR_SIZE = Long.MAX_VALUE;
    /** rxe: at most 128 unacknowledged PSNs (RXE_MAX_UNACKED_PSNS). */
    public static final int MAX_UNACKED_PSNS = TransportLimits.MAX_UNACKED_PSNS;
    /** rxe: an AckReq at least every 64 packets (RXE_MAX_PKT_PER_ACK). */
    public static final int MAX_PKT_PER_ACK = TransportLimits.MAX_PKT_PER_ACK;

    private SoftLimits() {
    }
}
