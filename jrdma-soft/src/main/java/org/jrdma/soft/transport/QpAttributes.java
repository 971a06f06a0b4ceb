package org.jrdma.soft.transport;

import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpAttrMask;

/**
 * A QP's transport attributes as modify_qp sets them (ibv_qp_attr's fields the stages read),
 * one value applied by mask ({@link #apply}). The path (AV) is the QP's own, with its address
 * family; the state is {@link TransportQp#moveTo}. Read by the stages, written only here.
 */
final class QpAttributes {
    int accessFlags;
    Mtu mtu = Mtu.MTU_1024;
    int destQpn;
    /** The local ACK timeout exponent: 4.096 µs × 2^timeout, 0 for none. */
    int timeout;
    int retryCnt;
    int rnrRetry;
    /** The RNR NAK timer code this responder asks for (IBA table 45). */
    int minRnrTimer;
    /**
     * UD/GSI: the Q_Key incoming datagrams must carry (and outgoing ones use when the WR's has bit
     * 31 set). Controlled (bit 31 set) only on the GSI QP, where it is 0x80010000.
     */
    int qkey;
    /** max_rd_atomic: READs/atomics this QP may have outstanding as initiator. */
    int maxRdAtomic;
    /** max_dest_rd_atomic: READs and atomics the responder remembers. */
    int maxDestRdAtomic;

    /** Copies the attributes {@code mask} names from {@code attr} (already validated). */
    void apply(QpAttr attr, int mask) {
        if (QpAttrMask.ACCESS_FLAGS.in(mask)) {
            accessFlags = attr.accessFlags();
        }
        if (QpAttrMask.QKEY.in(mask)) {
            qkey = attr.qkey();
        }
        if (QpAttrMask.PATH_MTU.in(mask)) {
            mtu = attr.pathMtu();
        }
        if (QpAttrMask.DEST_QPN.in(mask)) {
            destQpn = attr.destQpNum();
        }
        if (QpAttrMask.TIMEOUT.in(mask)) {
            timeout = attr.timeout();
        }
        if (QpAttrMask.RETRY_CNT.in(mask)) {
            retryCnt = attr.retryCnt();
        }
        if (QpAttrMask.RNR_RETRY.in(mask)) {
            rnrRetry = attr.rnrRetry();
        }
        if (QpAttrMask.MIN_RNR_TIMER.in(mask)) {
            minRnrTimer = attr.minRnrTimer();
        }
        if (QpAttrMask.MAX_QP_RD_ATOMIC.in(mask)) {
            maxRdAtomic = attr.maxRdAtomic();
        }
        if (QpAttrMask.MAX_DEST_RD_ATOMIC.in(mask)) {
            maxDestRdAtomic = attr.maxDestRdAtomic();
        }
    }
}
