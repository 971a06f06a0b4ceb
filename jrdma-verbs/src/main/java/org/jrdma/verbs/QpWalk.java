package org.jrdma.verbs;

import java.util.Objects;

/**
 * A QP's RESET → INIT → RTR → RTS walk, as libibverbs programs write it: one {@link QpAttr}
 * per step carrying exactly the attributes ibv_modify_qp requires of that step for the QP's
 * transport, no more (the table is {@link org.jrdma.verbs.spi.QpTransitions}, which every
 * provider checks and which checks the values too), each besides STATE:
 *
 * <pre>
 *       INIT                         RTR                               RTS
 *  RC   PKEY_INDEX PORT ACCESS_FLAGS AV PATH_MTU DEST_QPN RQ_PSN       SQ_PSN TIMEOUT RETRY_CNT
 *                                    MAX_DEST_RD_ATOMIC MIN_RNR_TIMER  RNR_RETRY MAX_QP_RD_ATOMIC
 *  UC   PKEY_INDEX PORT ACCESS_FLAGS AV PATH_MTU DEST_QPN RQ_PSN       SQ_PSN
 *  UD   PKEY_INDEX PORT QKEY         (the state alone)                 SQ_PSN
 * </pre>
 *
 * <p>A GSI QP walks as UD does (PORT is optional for it at INIT, and given). The builder holds the
 * values of all three steps; a step takes the ones its transport uses and ignores the rest, so
 * one builder serves RC, UC and UD. Start from a preset ({@link #rcPingpong}, {@link #perftest})
 * or from {@link #of} and set what the program decides — the peer's QPN, PSN and address
 * vector, our send PSN, and any value a program chooses differently (a CM's, from its REQ and
 * REP). Each step returns a new {@link QpAttr}; the builder is not thread-safe.
 *
 * <pre>{@code
 * QpWalk walk = QpWalk.rcPingpong(QpType.RC).accessFlags(AccessFlags.LOCAL_WRITE)
 *         .destQpNum(peer.qpn()).rqPsn(peer.psn()).ahAttr(av).sqPsn(ourPsn);
 * qp.modify(walk.init());   // post receives here, as rc_pingpong does
 * qp.modify(walk.rtr());
 * qp.modify(walk.rts());
 * }</pre>
 */
public final class QpWalk {
    /** ibv_ud_pingpong's and perftest's Q_Key (perftest's DEF_QKEY). */
    public static final int DEFAULT_QKEY = 0x11111111;

    private final QpType qpType;
    private int pkeyIndex;
    private int port = 1;
    private int accessFlags;
    private int qkey;
    private Mtu pathMtu = Mtu.MTU_1024;
    private int destQpNum;
    private int rqPsn;
    private AhAttr ahAttr;
    private int maxDestRdAtomic;
    private int minRnrTimer;
    private int sqPsn;
    private int timeout;
    private int retryCnt;
    private int rnrRetry;
    private int maxRdAtomic;

    private QpWalk(QpType qpType) {
        this.qpType = Objects.requireNonNull(qpType, "qpType");
        if (qpType != QpType.RC && qpType != QpType.UC && qpType != QpType.UD && qpType != QpType.GSI) {
            throw new IllegalArgumentException("QpWalk walks RC, UC, UD and GSI QPs, not " + qpType);
        }
    }

    /**
     * No preset: P_Key index 0, port 1, MTU 1024 and every other value 0, for a program that
     * sets each value itself (rdma_cm's come from its REQ and REP).
     *
     * @param qpType RC, UC, UD or GSI
     * @return a new builder
     * @throws IllegalArgumentException for any other type
     */
    public static QpWalk of(QpType qpType) {
        return new QpWalk(qpType);
    }

    /**
     * ibv_rc_pingpong's values (ibv_uc_pingpong and ibv_ud_pingpong take their subsets): P_Key
     * index 0, port 1, access flags 0, MTU 1024, max_dest_rd_atomic 1, min_rnr_timer 12
     * (0.64 ms), timeout 14 (67 ms), retry_cnt 7, rnr_retry 7 (infinite), max_rd_atomic 1, and
     * ud_pingpong's Q_Key {@link #DEFAULT_QKEY}.
     *
     * @param qpType RC, UC, UD or GSI
     * @return a new builder
     * @throws IllegalArgumentException for any other type
     */
    public static QpWalk rcPingpong(QpType qpType) {
        return new QpWalk(qpType).qkey(DEFAULT_QKEY).maxDestRdAtomic(1).minRnrTimer(12).timeout(14).retryCnt(7)
                .rnrRetry(7).maxRdAtomic(1);
    }

    /**
     * perftest's values (ctx_modify_qp_to_init/rtr/rts): P_Key index 0, port 1; access
     * LOCAL_WRITE | REMOTE_WRITE, plus REMOTE_READ and REMOTE_ATOMIC on RC, so one QP serves
     * every verb; Q_Key {@link #DEFAULT_QKEY}; MTU 1024 until the two sides agree on one;
     * min_rnr_timer 12, timeout 14 (qp_timeout's default), retry_cnt 7, rnr_retry 7. The read
     * depths are the {@code -o} values the sides swap (ours is max_dest_rd_atomic, the peer's
     * max_rd_atomic); both start at 16, {@code jrdma perf -o}'s default.
     *
     * @param qpType RC, UC, UD or GSI
     * @return a new builder
     * @throws IllegalArgumentException for any other type
     */
    public static QpWalk perftest(QpType qpType) {
        int access = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE;
        if (qpType == QpType.RC) {
            access |= AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC;
        }
        return new QpWalk(qpType).accessFlags(access).qkey(DEFAULT_QKEY).maxDestRdAtomic(16).minRnrTimer(12)
                .timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(16);
    }

    /** {@return RESET → INIT: where the QP lives, and for RC/UC what the peer may do to it, for UD its Q_Key} */
    public QpAttr init() {
        QpAttr attr = new QpAttr().state(QpState.INIT).pkeyIndex(pkeyIndex).port(port);
        return qpType.isDatagram() ? attr.qkey(qkey) : attr.accessFlags(accessFlags);
    }

    /**
     * INIT → RTR: the peer's address, QPN and first PSN (RC/UC), and for RC the READs/atomics we
     * serve and the RNR delay we ask for. A datagram QP has no peer, so it carries the state alone.
     *
     * @return the attributes of the step
     */
    public QpAttr rtr() {
        QpAttr attr = new QpAttr().state(QpState.RTR);
        if (qpType.isDatagram()) {
            return attr;
        }
        attr.ahAttr(ahAttr).pathMtu(pathMtu).destQpNum(destQpNum).rqPsn(rqPsn);
        return qpType == QpType.RC ? attr.maxDestRdAtomic(maxDestRdAtomic).minRnrTimer(minRnrTimer) : attr;
    }

    /** {@return RTR → RTS: our first PSN, and for RC (the only transport with ACKs) its retry policy and read depth} */
    public QpAttr rts() {
        QpAttr attr = new QpAttr().state(QpState.RTS).sqPsn(sqPsn);
        return qpType == QpType.RC
                ? attr.timeout(timeout).retryCnt(retryCnt).rnrRetry(rnrRetry).maxRdAtomic(maxRdAtomic)
                : attr;
    }

    /**
     * The three steps in turn, for a program with nothing to do between them.
     *
     * @param qp a QP in RESET, of this builder's type
     * @throws VerbsException as {@link QueuePair#modify(QpAttr)} fails, at the step that failed
     */
    public void toRts(QueuePair qp) {
        qp.modify(init());
        qp.modify(rtr());
        qp.modify(rts());
    }

    /**
     * Sets the P_Key index (0 unless set).
     *
     * @param index the P_Key index (INIT)
     * @return this builder
     */
    public QpWalk pkeyIndex(int index) {
        pkeyIndex = index;
        return this;
    }

    /**
     * Sets the local port (1 unless set).
     *
     * @param portNum the local port, from 1 (INIT)
     * @return this builder
     */
    public QpWalk port(int portNum) {
        port = portNum;
        return this;
    }

    /**
     * Sets qp_access_flags (RC, UC).
     *
     * @param flags {@link AccessFlags} bits
     * @return this builder
     */
    public QpWalk accessFlags(int flags) {
        accessFlags = flags;
        return this;
    }

    /**
     * Sets the Q_Key (UD and GSI; the GSI QP's is {@link Qkey#QP1}).
     *
     * @param key the Q_Key (INIT)
     * @return this builder
     */
    public QpWalk qkey(int key) {
        qkey = key;
        return this;
    }

    /**
     * Sets the path MTU (RC, UC).
     *
     * @param mtu the path MTU (RTR)
     * @return this builder
     */
    public QpWalk pathMtu(Mtu mtu) {
        pathMtu = mtu;
        return this;
    }

    /**
     * Sets the peer's QPN (RC, UC).
     *
     * @param qpn the peer's 24-bit QP number (RTR)
     * @return this builder
     */
    public QpWalk destQpNum(int qpn) {
        destQpNum = qpn;
        return this;
    }

    /**
     * Sets the PSN the peer starts sending with (RC, UC).
     *
     * @param psn the peer's first PSN (RTR)
     * @return this builder
     */
    public QpWalk rqPsn(int psn) {
        rqPsn = psn;
        return this;
    }

    /**
     * Sets the address vector to the peer (RC, UC); on RoCE global, to its GID.
     *
     * @param ah the address vector (RTR)
     * @return this builder
     */
    public QpWalk ahAttr(AhAttr ah) {
        ahAttr = ah;
        return this;
    }

    /**
     * Sets the responder resources: the peer's READs/atomics we serve at once (RC).
     *
     * @param n max_dest_rd_atomic (RTR)
     * @return this builder
     */
    public QpWalk maxDestRdAtomic(int n) {
        maxDestRdAtomic = n;
        return this;
    }

    /**
     * Sets the RNR timer code our RNR NAKs carry (RC).
     *
     * @param code an IBA RNR timer code, 0 to 31 (RTR)
     * @return this builder
     */
    public QpWalk minRnrTimer(int code) {
        minRnrTimer = code;
        return this;
    }

    /**
     * Sets the PSN we start sending with.
     *
     * @param psn our first 24-bit PSN (RTS)
     * @return this builder
     */
    public QpWalk sqPsn(int psn) {
        sqPsn = psn;
        return this;
    }

    /**
     * Sets the local ACK timeout, 4.096 µs × 2^t (RC); see {@link QpAttr#timeout(int)} for 0.
     *
     * @param t the timeout exponent, 0 to 31 (RTS)
     * @return this builder
     */
    public QpWalk timeout(int t) {
        timeout = t;
        return this;
    }

    /**
     * Sets retry_cnt (RC).
     *
     * @param n retry_cnt, 0 to 7 (RTS)
     * @return this builder
     */
    public QpWalk retryCnt(int n) {
        retryCnt = n;
        return this;
    }

    /**
     * Sets rnr_retry (RC); 7 retries for ever.
     *
     * @param n rnr_retry, 0 to 7 (RTS)
     * @return this builder
     */
    public QpWalk rnrRetry(int n) {
        rnrRetry = n;
        return this;
    }

    /**
     * Sets the initiator depth: our READs/atomics in flight at once (RC).
     *
     * @param n max_rd_atomic (RTS)
     * @return this builder
     */
    public QpWalk maxRdAtomic(int n) {
        maxRdAtomic = n;
        return this;
    }

    /** {@return the QP type the builder walks} */
    public QpType qpType() {
        return qpType;
    }

    /** {@return the P_Key index} */
    public int pkeyIndex() {
        return pkeyIndex;
    }

    /** {@return the local port} */
    public int port() {
        return port;
    }

    /** {@return qp_access_flags} */
    public int accessFlags() {
        return accessFlags;
    }

    /** {@return the Q_Key} */
    public int qkey() {
        return qkey;
    }

    /** {@return the path MTU} */
    public Mtu pathMtu() {
        return pathMtu;
    }

    /** {@return the peer's QP number} */
    public int destQpNum() {
        return destQpNum;
    }

    /** {@return the peer's first PSN} */
    public int rqPsn() {
        return rqPsn;
    }

    /** {@return the address vector to the peer, or null until set} */
    public AhAttr ahAttr() {
        return ahAttr;
    }

    /** {@return max_dest_rd_atomic} */
    public int maxDestRdAtomic() {
        return maxDestRdAtomic;
    }

    /** {@return min_rnr_timer} */
    public int minRnrTimer() {
        return minRnrTimer;
    }

    /** {@return our first PSN} */
    public int sqPsn() {
        return sqPsn;
    }

    /** {@return the local ACK timeout exponent} */
    public int timeout() {
        return timeout;
    }

    /** {@return retry_cnt} */
    public int retryCnt() {
        return retryCnt;
    }

    /** {@return rnr_retry} */
    public int rnrRetry() {
        return rnrRetry;
    }

    /** {@return max_rd_atomic} */
    public int maxRdAtomic() {
        return maxRdAtomic;
    }
}
