package org.jrdma.verbs;

import java.util.StringJoiner;

/** {@code enum ibv_qp_attr_mask}: which attributes a modify_qp/query_qp call carries. */
public enum QpAttrMask {
    /** {@code IBV_QP_STATE}: qp_state, the state to move to. */
    STATE(0),
    /** {@code IBV_QP_CUR_STATE}: cur_qp_state, the state the caller believes the QP is in. */
    CUR_STATE(1),
    /** {@code IBV_QP_EN_SQD_ASYNC_NOTIFY}: en_sqd_async_notify, an SQ_DRAINED event on entering SQD. */
    EN_SQD_ASYNC_NOTIFY(2),
    /** {@code IBV_QP_ACCESS_FLAGS}: qp_access_flags, what incoming RDMA and atomics may do. */
    ACCESS_FLAGS(3),
    /** {@code IBV_QP_PKEY_INDEX}: pkey_index, the P_Key table entry. */
    PKEY_INDEX(4),
    /** {@code IBV_QP_PORT}: port_num. */
    PORT(5),
    /** {@code IBV_QP_QKEY}: qkey (UD, GSI). */
    QKEY(6),
    /** {@code IBV_QP_AV}: ah_attr, the primary path's address vector. */
    AV(7),
    /** {@code IBV_QP_PATH_MTU}: path_mtu. */
    PATH_MTU(8),
    /** {@code IBV_QP_TIMEOUT}: timeout, the local ACK timeout. */
    TIMEOUT(9),
    /** {@code IBV_QP_RETRY_CNT}: retry_cnt, retransmissions after a timeout or NAK. */
    RETRY_CNT(10),
    /** {@code IBV_QP_RNR_RETRY}: rnr_retry, retries after RNR NAKs. */
    RNR_RETRY(11),
    /** {@code IBV_QP_RQ_PSN}: rq_psn, the first PSN expected from the peer. */
    RQ_PSN(12),
    /** {@code IBV_QP_MAX_QP_RD_ATOMIC}: max_rd_atomic, our READs/atomics in flight. */
    MAX_QP_RD_ATOMIC(13),
    /** {@code IBV_QP_ALT_PATH}: the alternate path's attributes (automatic path migration). */
    ALT_PATH(14),
    /** {@code IBV_QP_MIN_RNR_TIMER}: min_rnr_timer, the delay our RNR NAKs ask for. */
    MIN_RNR_TIMER(15),
    /** {@code IBV_QP_SQ_PSN}: sq_psn, our first PSN. */
    SQ_PSN(16),
    /** {@code IBV_QP_MAX_DEST_RD_ATOMIC}: max_dest_rd_atomic, the peer's READs/atomics we serve at once. */
    MAX_DEST_RD_ATOMIC(17),
    /** {@code IBV_QP_PATH_MIG_STATE}: path_mig_state. */
    PATH_MIG_STATE(18),
    /** {@code IBV_QP_CAP}: cap, the queue sizes. */
    CAP(19),
    /** {@code IBV_QP_DEST_QPN}: dest_qp_num, the peer's QP number. */
    DEST_QPN(20),
    /** {@code IBV_QP_RATE_LIMIT}: rate_limit (packet pacing). */
    RATE_LIMIT(25);

    private final int bit;

    QpAttrMask(int shift) {
        this.bit = 1 << shift;
    }

    /** {@return the {@code IBV_QP_*} bit value} */
    public int bit() {
        return bit;
    }

    /**
     * Is this attribute's bit set in a mask?
     *
     * @param mask a set of {@code QpAttrMask} bits
     * @return true when {@code mask} has {@link #bit()}
     */
    public boolean in(int mask) {
        return (mask & bit) != 0;
    }

    /** {@return the mask of all defined bits} */
    public static int all() {
        int m = 0;
        for (QpAttrMask a : values()) {
            m |= a.bit;
        }
        return m;
    }

    /**
     * The mask of some attributes.
     *
     * @param attrs the attributes
     * @return their bits ORed together (0 for none)
     */
    public static int of(QpAttrMask... attrs) {
        int m = 0;
        for (QpAttrMask a : attrs) {
            m |= a.bit;
        }
        return m;
    }

    /**
     * Names the bits of a mask, for messages.
     *
     * @param mask a set of {@code QpAttrMask} bits
     * @return the names, e.g. {@code DEST_QPN, RQ_PSN}; unknown bits as one hex value; empty for 0
     */
    public static String names(int mask) {
        StringJoiner j = new StringJoiner(", ");
        int rest = mask;
        for (QpAttrMask a : values()) {
            if ((mask & a.bit) != 0) {
                j.add(a.name());
                rest &= ~a.bit;
            }
        }
        if (rest != 0) {
            j.add("0x" + Integer.toHexString(rest));
        }
        return j.toString();
    }
}
