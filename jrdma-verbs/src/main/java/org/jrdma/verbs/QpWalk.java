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
     */
    public static QpWalk of(QpType qpType) {
        return new QpWalk(qpType);
    }

    /**
     * ibv_rc_pingpong's values (ibv_uc_pingpong and ibv_ud_pingpong take their subsets): P_Key
     * index 0, port 1, access flags 0, MTU 1024, max_dest_rd_atomic 1, min_rnr_timer 12
     * (0.64 ms), timeout 14 (67 ms), retry_cnt 7, rnr_retry 7 (infinite), max_rd_atomic 1, and
     * ud_pingpong's Q_Key {@link #DEFAULT_QKEY}.
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
     */
    public static QpWalk perftest(QpType qpType) {
        int access = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE;
        if (qpType == QpType.RC) {
            access |= AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC;
        }
        return new QpWalk(qpType).accessFlags(access).qkey(DEFAULT_QKEY).maxDestRdAtomic(16).minRnrTimer(12)
                .timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(16);
    }

    /** RESET → INIT: where the QP lives, and for RC/UC what the peer may do to it, for UD its Q_Key. */
    public QpAttr init() {
        QpAttr attr = new QpAttr().state(QpState.INIT).pkeyIndex(pkeyIndex).port(port);
        return qpType.isDatagram() ? attr.qkey(qkey) : attr.accessFlags(accessFlags);
    }

    /**
     * INIT → RTR: the peer's address, QPN and first PSN (RC/UC), and for RC the READs/atomics we
     * serve and the RNR delay we ask for. A datagram QP has no peer, so it carries the state alone.
     */
    public QpAttr rtr() {
        QpAttr attr = new QpAttr().state(QpState.RTR);
        if (qpType.isDatagram()) {
            return attr;
        }
        attr.ahAttr(ahAttr).pathMtu(pathMtu).destQpNum(destQpNum).rqPsn(rqPsn);
        return qpType == QpType.RC ? attr.maxDestRdAtomic(maxDestRdAtomic).minRnrTimer(minRnrTimer) : attr;
    }

    /** RTR → RTS: our first PSN, and for RC (the only transport with ACKs) its retry policy and read depth. */
    public QpAttr rts() {
        QpAttr attr = new QpAttr().state(QpState.RTS).sqPsn(sqPsn);
        return qpType == QpType.RC
                ? attr.timeout(timeout).retryCnt(retryCnt).rnrRetry(rnrRetry).maxRdAtomic(maxRdAtomic)
                : attr;
    }

    /** The three steps in turn, for a program with nothing to do between them. */
    public void toRts(QueuePair qp) {
        qp.modify(init());
        qp.modify(rtr());
        qp.modify(rts());
    }

    public QpWalk pkeyIndex(int index) {
        pkeyIndex = index;
        return this;
    }

    public QpWalk port(int portNum) {
        port = portNum;
        return this;
    }

    /** qp_access_flags (RC, UC). */
    public QpWalk accessFlags(int flags) {
        accessFlags = flags;
        return this;
    }

    /** UD and GSI. */
    public QpWalk qkey(int key) {
        qkey = key;
        return this;
    }

    /** RC, UC. */
    public QpWalk pathMtu(Mtu mtu) {
        pathMtu = mtu;
        return this;
    }

    /** The peer's QPN (RC, UC). */
    public QpWalk destQpNum(int qpn) {
        destQpNum = qpn;
        return this;
    }

    /** The PSN the peer starts sending with (RC, UC). */
    public QpWalk rqPsn(int psn) {
        rqPsn = psn;
        return this;
    }

    /** The address vector to the peer (RC, UC); on RoCE global, to its GID. */
    public QpWalk ahAttr(AhAttr ah) {
        ahAttr = ah;
        return this;
    }

    /** Responder resources: the peer's READs/atomics we serve at once (RC). */
    public QpWalk maxDestRdAtomic(int n) {
        maxDestRdAtomic = n;
        return this;
    }

    /** The RNR timer code our RNR NAKs carry (RC). */
    public QpWalk minRnrTimer(int code) {
        minRnrTimer = code;
        return this;
    }

    /** The PSN we start sending with. */
    public QpWalk sqPsn(int psn) {
        sqPsn = psn;
        return this;
    }

    /** The local ACK timeout, 4.096 µs × 2^t (RC); see {@link QpAttr#timeout(int)} for 0. */
    public QpWalk timeout(int t) {
        timeout = t;
        return this;
    }

    /** RC. */
    public QpWalk retryCnt(int n) {
        retryCnt = n;
        return this;
    }

    /** RC; 7 retries for ever. */
    public QpWalk rnrRetry(int n) {
        rnrRetry = n;
        return this;
    }

    /** Initiator depth: our READs/atomics in flight at once (RC). */
    public QpWalk maxRdAtomic(int n) {
        maxRdAtomic = n;
        return this;
    }

    public QpType qpType() {
        return qpType;
    }

    public int pkeyIndex() {
        return pkeyIndex;
    }

    public int port() {
        return port;
    }

    public int accessFlags() {
        return accessFlags;
    }

    public int qkey() {
        return qkey;
    }

    public Mtu pathMtu() {
        return pathMtu;
    }

    public int destQpNum() {
        return destQpNum;
    }

    public int rqPsn() {
        return rqPsn;
    }

    public AhAttr ahAttr() {
        return ahAttr;
    }

    public int maxDestRdAtomic() {
        return maxDestRdAtomic;
    }

    public int minRnrTimer() {
        return minRnrTimer;
    }

    public int sqPsn() {
        return sqPsn;
    }

    public int timeout() {
        return timeout;
    }

    public int retryCnt() {
        return retryCnt;
    }

    public int rnrRetry() {
        return rnrRetry;
    }

    public int maxRdAtomic() {
        return maxRdAtomic;
    }
}
