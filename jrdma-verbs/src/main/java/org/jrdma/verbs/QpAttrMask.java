package org.jrdma.verbs;

import java.util.StringJoiner;

/** {@code enum ibv_qp_attr_mask}: which attributes a modify_qp/query_qp call carries. */
public enum QpAttrMask {
    STATE(0), CUR_STATE(1), EN_SQD_ASYNC_NOTIFY(2), ACCESS_FLAGS(3), PKEY_INDEX(4), PORT(5),
    QKEY(6), AV(7), PATH_MTU(8), TIMEOUT(9), RETRY_CNT(10), RNR_RETRY(11), RQ_PSN(12),
    MAX_QP_RD_ATOMIC(13), ALT_PATH(14), MIN_RNR_TIMER(15), SQ_PSN(16), MAX_DEST_RD_ATOMIC(17),
    PATH_MIG_STATE(18), CAP(19), DEST_QPN(20), RATE_LIMIT(25);

    private final int bit;

    QpAttrMask(int shift) {
        this.bit = 1 << shift;
    }

    /** The IBV_QP_* bit value. */
    public int bit() {
        return bit;
    }

    public boolean in(int mask) {
        return (mask & bit) != 0;
    }

    /** All defined bits. */
    public static int all() {
        int m = 0;
        for (QpAttrMask a : values()) {
            m |= a.bit;
        }
        return m;
    }

    public static int of(QpAttrMask... attrs) {
        int m = 0;
        for (QpAttrMask a : attrs) {
            m |= a.bit;
        }
        return m;
    }

    /** Names of the bits in a mask, e.g. {@code DEST_QPN, RQ_PSN}; unknown bits as hex. */
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
