package org.jrdma.verbs.spi;

import static org.jrdma.verbs.QpAttrMask.ACCESS_FLAGS;
import static org.jrdma.verbs.QpAttrMask.ALT_PATH;
import static org.jrdma.verbs.QpAttrMask.AV;
import static org.jrdma.verbs.QpAttrMask.CUR_STATE;
import static org.jrdma.verbs.QpAttrMask.DEST_QPN;
import static org.jrdma.verbs.QpAttrMask.EN_SQD_ASYNC_NOTIFY;
import static org.jrdma.verbs.QpAttrMask.MAX_DEST_RD_ATOMIC;
import static org.jrdma.verbs.QpAttrMask.MAX_QP_RD_ATOMIC;
import static org.jrdma.verbs.QpAttrMask.MIN_RNR_TIMER;
import static org.jrdma.verbs.QpAttrMask.PATH_MIG_STATE;
import static org.jrdma.verbs.QpAttrMask.PATH_MTU;
import static org.jrdma.verbs.QpAttrMask.PKEY_INDEX;
import static org.jrdma.verbs.QpAttrMask.PORT;
import static org.jrdma.verbs.QpAttrMask.QKEY;
import static org.jrdma.verbs.QpAttrMask.RETRY_CNT;
import static org.jrdma.verbs.QpAttrMask.RNR_RETRY;
import static org.jrdma.verbs.QpAttrMask.RQ_PSN;
import static org.jrdma.verbs.QpAttrMask.SQ_PSN;
import static org.jrdma.verbs.QpAttrMask.STATE;
import static org.jrdma.verbs.QpAttrMask.TIMEOUT;
import static org.jrdma.verbs.QpAttrMask.of;

import org.jrdma.verbs.Errno;
import org.jrdma.verbs.Qkey;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.VerbsException;

/**
 * The QP state machine of the verbs: which transitions are legal and which attributes each one
 * requires and allows, per QP type — the kernel's {@code qp_state_table} (ROCEV2-FACTS §3.2–3.3).
 * Every provider checks modify_qp against it before touching the QP, so that a refused call
 * modifies nothing.
 *
 * <p>The GSI QP follows UD's rules except at RESET → INIT, where the kernel requires only
 * PKEY_INDEX and QKEY (the port is the one the QP was created on). PORT is accepted there too,
 * so that code written for UD works unchanged. Q_Keys are checked here as well, since the rule
 * is the verbs' own and not a provider's: only the GSI QP may hold a controlled Q_Key (EPERM, as
 * the kernel answers an unprivileged user), and the GSI QP holds exactly {@link Qkey#QP1}.
 */
public final class QpTransitions {
    private static final int RC = 0;
    private static final int UC = 1;
    private static final int UD = 2;
    private static final int GSI = 3;
    private static final int STATES = QpState.values().length;

    /** [from][to] → null when illegal, else {required[type], optional[type]}. */
    private static final int[][][][] TABLE = new int[STATES][STATES][][];

    static {
        int none = 0;
        for (QpState from : QpState.values()) {
            if (from == QpState.UNKNOWN) {
                continue;
            }
            rule(from, QpState.RESET, new int[] {none, none, none}, new int[] {none, none, none});
            rule(from, QpState.ERR, new int[] {none, none, none}, new int[] {none, none, none});
        }
        rule(QpState.RESET, QpState.INIT,
                new int[] {of(PKEY_INDEX, PORT, ACCESS_FLAGS), of(PKEY_INDEX, PORT, ACCESS_FLAGS), of(PKEY_INDEX, PORT, QKEY)},
                new int[] {none, none, none});
        rule(QpState.INIT, QpState.INIT,
                new int[] {none, none, none},
                new int[] {of(PKEY_INDEX, PORT, ACCESS_FLAGS), of(PKEY_INDEX, PORT, ACCESS_FLAGS), of(PKEY_INDEX, PORT, QKEY)});
        rule(QpState.INIT, QpState.RTR,
                new int[] {of(AV, PATH_MTU, DEST_QPN, RQ_PSN, MAX_DEST_RD_ATOMIC, MIN_RNR_TIMER),
                        of(AV, PATH_MTU, DEST_QPN, RQ_PSN), none},
                new int[] {of(ALT_PATH, ACCESS_FLAGS, PKEY_INDEX), of(ALT_PATH, ACCESS_FLAGS, PKEY_INDEX), of(PKEY_INDEX, QKEY)});
        rule(QpState.RTR, QpState.RTS,
                new int[] {of(SQ_PSN, TIMEOUT, RETRY_CNT, RNR_RETRY, MAX_QP_RD_ATOMIC), of(SQ_PSN), of(SQ_PSN)},
                new int[] {of(CUR_STATE, ALT_PATH, ACCESS_FLAGS, MIN_RNR_TIMER, PATH_MIG_STATE),
                        of(CUR_STATE, ALT_PATH, ACCESS_FLAGS, PATH_MIG_STATE), of(CUR_STATE, QKEY)});
        rule(QpState.RTS, QpState.RTS,
                new int[] {none, none, none},
                new int[] {of(CUR_STATE, ACCESS_FLAGS, ALT_PATH, PATH_MIG_STATE, MIN_RNR_TIMER),
                        of(CUR_STATE, ACCESS_FLAGS, ALT_PATH, PATH_MIG_STATE), of(CUR_STATE, QKEY)});
        rule(QpState.RTS, QpState.SQD,
                new int[] {none, none, none},
                new int[] {of(EN_SQD_ASYNC_NOTIFY), of(EN_SQD_ASYNC_NOTIFY), of(EN_SQD_ASYNC_NOTIFY)});
        rule(QpState.SQD, QpState.RTS,
                new int[] {none, none, none},
                new int[] {of(CUR_STATE, ALT_PATH, ACCESS_FLAGS, MIN_RNR_TIMER, PATH_MIG_STATE),
                        of(CUR_STATE, ALT_PATH, ACCESS_FLAGS, PATH_MIG_STATE), of(CUR_STATE, QKEY)});
        rule(QpState.SQD, QpState.SQD,
                new int[] {none, none, none},
                new int[] {of(PORT, AV, TIMEOUT, RETRY_CNT, RNR_RETRY, MAX_QP_RD_ATOMIC, MAX_DEST_RD_ATOMIC, ALT_PATH,
                        ACCESS_FLAGS, PKEY_INDEX, MIN_RNR_TIMER, PATH_MIG_STATE),
                        of(PORT, AV, ALT_PATH, ACCESS_FLAGS, PKEY_INDEX, PATH_MIG_STATE), of(PKEY_INDEX, QKEY)});
        // SQE exists for UC and UD only: an RC send error goes straight to ERR.
        rule(QpState.SQE, QpState.RTS,
                new int[] {-1, none, none},
                new int[] {-1, of(CUR_STATE, ACCESS_FLAGS), of(CUR_STATE, QKEY)});
        // K-verbs: IB_QPT_GSI needs only PKEY_INDEX and QKEY here; PORT stays acceptable (see above).
        TABLE[QpState.RESET.ordinal()][QpState.INIT.ordinal()][0][GSI] = of(PKEY_INDEX, QKEY);
        TABLE[QpState.RESET.ordinal()][QpState.INIT.ordinal()][1][GSI] = of(PORT);
    }

    private QpTransitions() {
    }

    /** {@code required} and {@code optional} per RC, UC, UD; the GSI QP starts with UD's. */
    private static void rule(QpState from, QpState to, int[] required, int[] optional) {
        TABLE[from.ordinal()][to.ordinal()] = new int[][] {withGsi(required), withGsi(optional)};
    }

    private static int[] withGsi(int[] rcUcUd) {
        return new int[] {rcUcUd[RC], rcUcUd[UC], rcUcUd[UD], rcUcUd[UD]};
    }

    private static int typeIndex(QpType type) {
        return switch (type) {
            case RC -> RC;
            case UC -> UC;
            case UD -> UD;
            case GSI -> GSI;
            default -> throw new VerbsException(Errno.EOPNOTSUPP, "modify_qp: QP type " + type + " is not supported");
        };
    }

    /**
     * Is {@code from → to} legal for this QP type (whatever the attributes)?
     *
     * @param type the QP's type: RC, UC, UD or GSI
     * @param from the current state
     * @param to   the state asked for
     * @return true when modify_qp may make that transition
     * @throws VerbsException EOPNOTSUPP for another QP type
     */
    public static boolean isLegal(QpType type, QpState from, QpState to) {
        int[][] rule = TABLE[from.ordinal()][to.ordinal()];
        return rule != null && rule[0][typeIndex(type)] >= 0;
    }

    /**
     * The attributes {@code from → to} requires, besides STATE.
     *
     * @param type the QP's type: RC, UC, UD or GSI
     * @param from the current state
     * @param to   the state asked for
     * @return a {@link org.jrdma.verbs.QpAttrMask} mask; -1 when the transition is illegal
     * @throws VerbsException EOPNOTSUPP for another QP type
     */
    public static int required(QpType type, QpState from, QpState to) {
        int[][] rule = TABLE[from.ordinal()][to.ordinal()];
        return rule == null ? -1 : rule[0][typeIndex(type)];
    }

    /**
     * The attributes {@code from → to} also accepts.
     *
     * @param type the QP's type: RC, UC, UD or GSI
     * @param from the current state
     * @param to   the state asked for
     * @return a {@link org.jrdma.verbs.QpAttrMask} mask; -1 when the transition is illegal
     * @throws VerbsException EOPNOTSUPP for another QP type
     */
    public static int optional(QpType type, QpState from, QpState to) {
        int[][] rule = TABLE[from.ordinal()][to.ordinal()];
        return rule == null ? -1 : rule[1][typeIndex(type)];
    }

    /**
     * Checks a modify_qp call and returns the state it leads to. The target is
     * {@code attr.qpState()} when the mask has STATE, else the current state (as the kernel does).
     *
     * @param type    the QP's type: RC, UC, UD or GSI
     * @param current the QP's current state
     * @param attr    the attribute values
     * @param mask    the {@link org.jrdma.verbs.QpAttrMask} bits of the attributes given
     * @return the state the call leads to
     * @throws VerbsException EINVAL naming the illegal transition or the missing / unexpected
     *     attributes, or the attribute whose value is out of range; EPERM for a controlled Q_Key
     *     on a QP other than GSI; EOPNOTSUPP for another QP type
     */
    public static QpState check(QpType type, QpState current, QpAttr attr, int mask) {
        QpState target = STATE.in(mask) ? attr.qpState() : current;
        String what = "modify_qp " + current + "→" + target;
        if (target == QpState.UNKNOWN || current == QpState.UNKNOWN) {
            throw new VerbsException(Errno.EINVAL, what + ": UNKNOWN is not a state a QP can be moved to or from");
        }
        if (CUR_STATE.in(mask) && attr.curQpState() != current) {
            throw new VerbsException(Errno.EINVAL,
                    what + ": CUR_STATE says " + attr.curQpState() + " but the QP is in " + current);
        }
        if (!isLegal(type, current, target)) {
            throw new VerbsException(Errno.EINVAL, what + ": not a legal transition for a " + type + " QP");
        }
        int required = required(type, current, target);
        int allowed = required | optional(type, current, target) | STATE.bit();
        int missing = required & ~mask;
        if (missing != 0) {
            throw new VerbsException(Errno.EINVAL, what + ": missing required attribute"
                    + (Integer.bitCount(missing) > 1 ? "s " : " ") + org.jrdma.verbs.QpAttrMask.names(missing));
        }
        int unexpected = mask & ~allowed;
        if (unexpected != 0) {
            throw new VerbsException(Errno.EINVAL, what + ": unexpected attribute"
                    + (Integer.bitCount(unexpected) > 1 ? "s " : " ") + org.jrdma.verbs.QpAttrMask.names(unexpected));
        }
        checkValues(what, attr, mask);
        checkQkey(what, type, attr, mask);
        return target;
    }

    /**
     * The GSI QP's Q_Key must be {@link Qkey#QP1}: the kernel sets that value itself when it
     * brings QP1 up, and we ask the caller to say it rather than silently override another one
     * (a CM that passes anything else has a bug). Any other QP is refused a controlled Q_Key
     * with EPERM, so that it cannot send or receive CM traffic.
     */
    private static void checkQkey(String what, QpType type, QpAttr attr, int mask) {
        if (!QKEY.in(mask)) {
            return;
        }
        int qkey = attr.qkey();
        if (type == QpType.GSI && qkey != Qkey.QP1) {
            throw new VerbsException(Errno.EINVAL, what + ": the GSI QP's Q_Key is " + Qkey.hex(Qkey.QP1)
                    + " (IB_QP1_QKEY), not " + Qkey.hex(qkey));
        }
        if (type != QpType.GSI && Qkey.isControlled(qkey)) {
            throw new VerbsException(Errno.EPERM, what + ": Q_Key " + Qkey.hex(qkey)
                    + " is a controlled Q_Key (high-order bit set): only the GSI QP may use it");
        }
    }

    /** Range checks every provider shares; a provider adds its own (device limits, GIDs). */
    private static void checkValues(String what, QpAttr attr, int mask) {
        if (RQ_PSN.in(mask)) {
            range(what, "RQ_PSN", attr.rqPsn(), 0, 0xFFFFFF);
        }
        if (SQ_PSN.in(mask)) {
            range(what, "SQ_PSN", attr.sqPsn(), 0, 0xFFFFFF);
        }
        if (DEST_QPN.in(mask)) {
            range(what, "DEST_QPN", attr.destQpNum(), 0, 0xFFFFFF);
        }
        if (TIMEOUT.in(mask)) {
            range(what, "TIMEOUT", attr.timeout(), 0, 31);
        }
        if (RETRY_CNT.in(mask)) {
            range(what, "RETRY_CNT", attr.retryCnt(), 0, 7);
        }
        if (RNR_RETRY.in(mask)) {
            range(what, "RNR_RETRY", attr.rnrRetry(), 0, 7);
        }
        if (MIN_RNR_TIMER.in(mask)) {
            range(what, "MIN_RNR_TIMER", attr.minRnrTimer(), 0, 31);
        }
        if (MAX_QP_RD_ATOMIC.in(mask)) {
            range(what, "MAX_QP_RD_ATOMIC", attr.maxRdAtomic(), 0, Integer.MAX_VALUE);
        }
        if (MAX_DEST_RD_ATOMIC.in(mask)) {
            range(what, "MAX_DEST_RD_ATOMIC", attr.maxDestRdAtomic(), 0, Integer.MAX_VALUE);
        }
        if (ACCESS_FLAGS.in(mask) && (attr.accessFlags() & ~org.jrdma.verbs.AccessFlags.ALL) != 0) {
            throw new VerbsException(Errno.EINVAL, what + ": ACCESS_FLAGS has unknown bits 0x"
                    + Integer.toHexString(attr.accessFlags() & ~org.jrdma.verbs.AccessFlags.ALL));
        }
        if (PATH_MTU.in(mask) && attr.pathMtu() == null) {
            throw new VerbsException(Errno.EINVAL, what + ": PATH_MTU is not set to an MTU");
        }
        if (AV.in(mask) && attr.ahAttr() == null) {
            throw new VerbsException(Errno.EINVAL, what + ": AV is not set to an address vector");
        }
    }

    private static void range(String what, String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new VerbsException(Errno.EINVAL, what + ": " + name + " " + Integer.toUnsignedString(value)
                    + " outside " + min + ".." + (max == 0xFFFFFF ? "0xFFFFFF" : String.valueOf(max)));
        }
    }
}
