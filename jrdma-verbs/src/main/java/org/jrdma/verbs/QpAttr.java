package org.jrdma.verbs;

/**
 * {@code struct ibv_qp_attr}. Each fluent setter also sets its {@link QpAttrMask} bit, so
 * {@code qp.modify(new QpAttr().state(INIT).pkeyIndex(0).port(1).accessFlags(0))} carries
 * exactly the attributes written; {@link QueuePair#modify(QpAttr, int)} takes an explicit mask
 * instead, as ibv_modify_qp does.
 */
public final class QpAttr {
    private int mask;

    private QpState qpState = QpState.RESET;
    private QpState curQpState = QpState.RESET;
    private Mtu pathMtu = Mtu.MTU_1024;
    private int qkey;
    private int rqPsn;
    private int sqPsn;
    private int destQpNum;
    private int qpAccessFlags;
    private QpCap cap;
    private AhAttr ahAttr = new AhAttr();
    private int pkeyIndex;
    private boolean enSqdAsyncNotify;
    private int maxRdAtomic;
    private int maxDestRdAtomic;
    private int minRnrTimer;
    private int portNum;
    private int timeout;
    private boolean timeoutInfinite;
    private int retryCnt;
    private int rnrRetry;

    /** An empty attribute set: mask 0, every value at its default (state RESET, MTU 1024). */
    public QpAttr() {
    }

    /** {@return the {@link QpAttrMask} bits of the attributes set through the fluent setters} */
    public int mask() {
        return mask;
    }

    private QpAttr set(QpAttrMask bit) {
        mask |= bit.bit();
        return this;
    }

    /**
     * Sets qp_state ({@code IBV_QP_STATE}): the state to move to.
     *
     * @param s the target state
     * @return this, with the attribute's mask bit set
     */
    public QpAttr state(QpState s) {
        qpState = s;
        return set(QpAttrMask.STATE);
    }

    /**
     * Sets cur_qp_state ({@code IBV_QP_CUR_STATE}): the state the caller believes the QP is in; modify_qp
     * fails with EINVAL when it is not.
     *
     * @param s the QP's current state
     * @return this, with the attribute's mask bit set
     */
    public QpAttr curState(QpState s) {
        curQpState = s;
        return set(QpAttrMask.CUR_STATE);
    }

    /**
     * Sets path_mtu ({@code IBV_QP_PATH_MTU}): the packet size on the path (RC, UC).
     *
     * @param m the path MTU, at most the port's active MTU
     * @return this, with the attribute's mask bit set
     */
    public QpAttr pathMtu(Mtu m) {
        pathMtu = m;
        return set(QpAttrMask.PATH_MTU);
    }

    /**
     * Sets qkey ({@code IBV_QP_QKEY}): the Q_Key of a UD or GSI QP; a controlled one is refused with EPERM
     * (but the GSI QP's {@link Qkey#QP1}).
     *
     * @param k the Q_Key
     * @return this, with the attribute's mask bit set
     */
    public QpAttr qkey(int k) {
        qkey = k;
        return set(QpAttrMask.QKEY);
    }

    /**
     * Sets rq_psn ({@code IBV_QP_RQ_PSN}): the first PSN expected from the peer (RC, UC).
     *
     * @param psn a 24-bit PSN, 0 to 0xFFFFFF
     * @return this, with the attribute's mask bit set
     */
    public QpAttr rqPsn(int psn) {
        rqPsn = psn;
        return set(QpAttrMask.RQ_PSN);
    }

    /**
     * Sets sq_psn ({@code IBV_QP_SQ_PSN}): the first PSN this QP sends with.
     *
     * @param psn a 24-bit PSN, 0 to 0xFFFFFF
     * @return this, with the attribute's mask bit set
     */
    public QpAttr sqPsn(int psn) {
        sqPsn = psn;
        return set(QpAttrMask.SQ_PSN);
    }

    /**
     * Sets dest_qp_num ({@code IBV_QP_DEST_QPN}): the peer's QP number (RC, UC).
     *
     * @param qpn a 24-bit QP number
     * @return this, with the attribute's mask bit set
     */
    public QpAttr destQpNum(int qpn) {
        destQpNum = qpn;
        return set(QpAttrMask.DEST_QPN);
    }

    /**
     * Sets qp_access_flags ({@code IBV_QP_ACCESS_FLAGS}): which incoming RDMA WRITEs, READs and atomics the
     * QP accepts (RC, UC).
     *
     * @param flags {@link AccessFlags} bits (REMOTE_WRITE, REMOTE_READ, REMOTE_ATOMIC)
     * @return this, with the attribute's mask bit set
     */
    public QpAttr accessFlags(int flags) {
        qpAccessFlags = flags;
        return set(QpAttrMask.ACCESS_FLAGS);
    }

    /**
     * Sets cap ({@code IBV_QP_CAP}): the queue sizes. No transition of
     * {@link org.jrdma.verbs.spi.QpTransitions} accepts it, so modify_qp refuses it; query_qp reports it.
     *
     * @param c the queue sizes
     * @return this, with the attribute's mask bit set
     */
    public QpAttr cap(QpCap c) {
        cap = c;
        return set(QpAttrMask.CAP);
    }

    /**
     * Sets ah_attr ({@code IBV_QP_AV}): the primary path's address vector (RC, UC).
     *
     * @param ah the address vector to the peer; on RoCE global, to its GID
     * @return this, with the attribute's mask bit set
     */
    public QpAttr ahAttr(AhAttr ah) {
        ahAttr = ah;
        return set(QpAttrMask.AV);
    }

    /**
     * Sets pkey_index ({@code IBV_QP_PKEY_INDEX}): the P_Key table entry the QP uses.
     *
     * @param index an index into the port's P_Key table, usually 0
     * @return this, with the attribute's mask bit set
     */
    public QpAttr pkeyIndex(int index) {
        pkeyIndex = index;
        return set(QpAttrMask.PKEY_INDEX);
    }

    /**
     * Sets en_sqd_async_notify ({@code IBV_QP_EN_SQD_ASYNC_NOTIFY}): an {@link AsyncEventType#SQ_DRAINED}
     * event when the send queue has drained, on the way to SQD.
     *
     * @param on whether to raise the event
     * @return this, with the attribute's mask bit set
     */
    public QpAttr enSqdAsyncNotify(boolean on) {
        enSqdAsyncNotify = on;
        return set(QpAttrMask.EN_SQD_ASYNC_NOTIFY);
    }

    /**
     * Sets max_rd_atomic ({@code IBV_QP_MAX_QP_RD_ATOMIC}): initiator depth, the READs and atomics this QP
     * has in flight at once (RC).
     *
     * @param n at most {@link DeviceAttr#maxQpInitRdAtom()}
     * @return this, with the attribute's mask bit set
     */
    public QpAttr maxRdAtomic(int n) {
        maxRdAtomic = n;
        return set(QpAttrMask.MAX_QP_RD_ATOMIC);
    }

    /**
     * Sets max_dest_rd_atomic ({@code IBV_QP_MAX_DEST_RD_ATOMIC}): responder resources, the peer's READs and
     * atomics served at once (RC).
     *
     * @param n at most {@link DeviceAttr#maxQpRdAtom()}
     * @return this, with the attribute's mask bit set
     */
    public QpAttr maxDestRdAtomic(int n) {
        maxDestRdAtomic = n;
        return set(QpAttrMask.MAX_DEST_RD_ATOMIC);
    }

    /**
     * Sets min_rnr_timer ({@code IBV_QP_MIN_RNR_TIMER}): the delay our RNR NAKs ask the peer to wait (RC).
     *
     * @param code an IBA RNR timer code, 0 to 31 (e.g. 12: 0.64 ms; 0: 655.36 ms)
     * @return this, with the attribute's mask bit set
     */
    public QpAttr minRnrTimer(int code) {
        minRnrTimer = code;
        return set(QpAttrMask.MIN_RNR_TIMER);
    }

    /**
     * Sets port_num ({@code IBV_QP_PORT}): the local port the QP uses.
     *
     * @param port the port, from 1
     * @return this, with the attribute's mask bit set
     */
    public QpAttr port(int port) {
        portNum = port;
        return set(QpAttrMask.PORT);
    }

    /**
     * The local ACK timeout, 4.096 µs × 2^t. 0 means no retransmit timer at all (IBA), so one lost
     * packet stalls the QP for ever; a provider may refuse 0 set this way (the soft provider does,
     * RELIABILITY-SECURITY REL-14) and take it only through {@link #timeoutInfinite()}.
     * Sets {@code IBV_QP_TIMEOUT} (RC).
     *
     * @param t the timeout exponent, 0 to 31 (14: 67 ms)
     * @return this, with the attribute's mask bit set
     */
    public QpAttr timeout(int t) {
        timeout = t;
        timeoutInfinite = false;
        return set(QpAttrMask.TIMEOUT);
    }

    /**
     * Timeout 0, no retransmit timer, asked for explicitly (REL-14: never by accident).
     *
     * @return this, with the TIMEOUT mask bit set
     */
    public QpAttr timeoutInfinite() {
        timeout(0);
        timeoutInfinite = true;
        return this;
    }

    /** {@return whether timeout 0 was asked for through {@link #timeoutInfinite()}} */
    public boolean isTimeoutInfinite() {
        return timeoutInfinite;
    }

    /**
     * Sets retry_cnt ({@code IBV_QP_RETRY_CNT}): retransmissions after an ACK timeout or a NAK before the WR
     * fails with RETRY_EXC_ERR (RC).
     *
     * @param n 0 to 7
     * @return this, with the attribute's mask bit set
     */
    public QpAttr retryCnt(int n) {
        retryCnt = n;
        return set(QpAttrMask.RETRY_CNT);
    }

    /**
     * Sets rnr_retry ({@code IBV_QP_RNR_RETRY}): retries after RNR NAKs before the WR fails with
     * RNR_RETRY_EXC_ERR (RC).
     *
     * @param n 0 to 6, or 7 for retrying for ever
     * @return this, with the attribute's mask bit set
     */
    public QpAttr rnrRetry(int n) {
        rnrRetry = n;
        return set(QpAttrMask.RNR_RETRY);
    }

    /** {@return qp_state: the state set (RESET until set), or the QP's state in a query} */
    public QpState qpState() {
        return qpState;
    }

    /** {@return cur_qp_state (RESET until set)} */
    public QpState curQpState() {
        return curQpState;
    }

    /** {@return path_mtu (MTU_1024 until set)} */
    public Mtu pathMtu() {
        return pathMtu;
    }

    /** {@return the Q_Key} */
    public int qkey() {
        return qkey;
    }

    /** {@return rq_psn, the first PSN expected from the peer} */
    public int rqPsn() {
        return rqPsn;
    }

    /** {@return sq_psn, the first PSN sent} */
    public int sqPsn() {
        return sqPsn;
    }

    /** {@return dest_qp_num, the peer's QP number} */
    public int destQpNum() {
        return destQpNum;
    }

    /** {@return qp_access_flags, as {@link AccessFlags} bits} */
    public int accessFlags() {
        return qpAccessFlags;
    }

    /** {@return the queue sizes, or null until set} */
    public QpCap cap() {
        return cap;
    }

    /** {@return ah_attr, the primary path's address vector (a default one until set)} */
    public AhAttr ahAttr() {
        return ahAttr;
    }

    /** {@return pkey_index} */
    public int pkeyIndex() {
        return pkeyIndex;
    }

    /** {@return en_sqd_async_notify} */
    public boolean enSqdAsyncNotify() {
        return enSqdAsyncNotify;
    }

    /** {@return max_rd_atomic, the initiator depth} */
    public int maxRdAtomic() {
        return maxRdAtomic;
    }

    /** {@return max_dest_rd_atomic, the responder resources} */
    public int maxDestRdAtomic() {
        return maxDestRdAtomic;
    }

    /** {@return min_rnr_timer, an RNR timer code} */
    public int minRnrTimer() {
        return minRnrTimer;
    }

    /** {@return port_num} */
    public int port() {
        return portNum;
    }

    /** {@return the local ACK timeout exponent (4.096 µs × 2^t; 0: none)} */
    public int timeout() {
        return timeout;
    }

    /** {@return retry_cnt} */
    public int retryCnt() {
        return retryCnt;
    }

    /** {@return rnr_retry (7: for ever)} */
    public int rnrRetry() {
        return rnrRetry;
    }

    @Override
    public String toString() {
        return "QpAttr{mask=[" + QpAttrMask.names(mask) + "], state=" + qpState + ", mtu=" + pathMtu
                + ", destQpn=0x" + Integer.toHexString(destQpNum) + ", access=" + AccessFlags.toString(qpAccessFlags)
                + ", timeout=" + timeout + ", retry=" + retryCnt + ", rnrRetry=" + rnrRetry + ", minRnrTimer="
                + minRnrTimer + ", maxRdAtomic=" + maxRdAtomic + ", maxDestRdAtomic=" + maxDestRdAtomic + ", ah="
                + ahAttr + "}";
    }
}
