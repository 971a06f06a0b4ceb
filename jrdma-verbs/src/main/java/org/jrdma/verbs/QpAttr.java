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

    /** The mask of the attributes set through the fluent setters. */
    public int mask() {
        return mask;
    }

    private QpAttr set(QpAttrMask bit) {
        mask |= bit.bit();
        return this;
    }

    public QpAttr state(QpState s) {
        qpState = s;
        return set(QpAttrMask.STATE);
    }

    public QpAttr curState(QpState s) {
        curQpState = s;
        return set(QpAttrMask.CUR_STATE);
    }

    public QpAttr pathMtu(Mtu m) {
        pathMtu = m;
        return set(QpAttrMask.PATH_MTU);
    }

    public QpAttr qkey(int k) {
        qkey = k;
        return set(QpAttrMask.QKEY);
    }

    public QpAttr rqPsn(int psn) {
        rqPsn = psn;
        return set(QpAttrMask.RQ_PSN);
    }

    public QpAttr sqPsn(int psn) {
        sqPsn = psn;
        return set(QpAttrMask.SQ_PSN);
    }

    public QpAttr destQpNum(int qpn) {
        destQpNum = qpn;
        return set(QpAttrMask.DEST_QPN);
    }

    public QpAttr accessFlags(int flags) {
        qpAccessFlags = flags;
        return set(QpAttrMask.ACCESS_FLAGS);
    }

    public QpAttr cap(QpCap c) {
        cap = c;
        return set(QpAttrMask.CAP);
    }

    public QpAttr ahAttr(AhAttr ah) {
        ahAttr = ah;
        return set(QpAttrMask.AV);
    }

    public QpAttr pkeyIndex(int index) {
        pkeyIndex = index;
        return set(QpAttrMask.PKEY_INDEX);
    }

    public QpAttr enSqdAsyncNotify(boolean on) {
        enSqdAsyncNotify = on;
        return set(QpAttrMask.EN_SQD_ASYNC_NOTIFY);
    }

    public QpAttr maxRdAtomic(int n) {
        maxRdAtomic = n;
        return set(QpAttrMask.MAX_QP_RD_ATOMIC);
    }

    public QpAttr maxDestRdAtomic(int n) {
        maxDestRdAtomic = n;
        return set(QpAttrMask.MAX_DEST_RD_ATOMIC);
    }

    public QpAttr minRnrTimer(int code) {
        minRnrTimer = code;
        return set(QpAttrMask.MIN_RNR_TIMER);
    }

    public QpAttr port(int port) {
        portNum = port;
        return set(QpAttrMask.PORT);
    }

    /**
     * The local ACK timeout, 4.096 µs × 2^t. 0 means no retransmit timer at all (IBA), so one lost
     * packet stalls the QP for ever; a provider may refuse 0 set this way (the soft provider does,
     * RELIABILITY-SECURITY REL-14) and take it only through {@link #timeoutInfinite()}.
     */
    public QpAttr timeout(int t) {
        timeout = t;
        timeoutInfinite = false;
        return set(QpAttrMask.TIMEOUT);
    }

    /** Timeout 0, no retransmit timer, asked for explicitly (REL-14: never by accident). */
    public QpAttr timeoutInfinite() {
        timeout(0);
        timeoutInfinite = true;
        return this;
    }

    /** Whether timeout 0 was asked for through {@link #timeoutInfinite()}. */
    public boolean isTimeoutInfinite() {
        return timeoutInfinite;
    }

    public QpAttr retryCnt(int n) {
        retryCnt = n;
        return set(QpAttrMask.RETRY_CNT);
    }

    public QpAttr rnrRetry(int n) {
        rnrRetry = n;
        return set(QpAttrMask.RNR_RETRY);
    }

    public QpState qpState() {
        return qpState;
    }

    public QpState curQpState() {
        return curQpState;
    }

    public Mtu pathMtu() {
        return pathMtu;
    }

    public int qkey() {
        return qkey;
    }

    public int rqPsn() {
        return rqPsn;
    }

    public int sqPsn() {
        return sqPsn;
    }

    public int destQpNum() {
        return destQpNum;
    }

    public int accessFlags() {
        return qpAccessFlags;
    }

    public QpCap cap() {
        return cap;
    }

    public AhAttr ahAttr() {
        return ahAttr;
    }

    public int pkeyIndex() {
        return pkeyIndex;
    }

    public boolean enSqdAsyncNotify() {
        return enSqdAsyncNotify;
    }

    public int maxRdAtomic() {
        return maxRdAtomic;
    }

    public int maxDestRdAtomic() {
        return maxDestRdAtomic;
    }

    public int minRnrTimer() {
        return minRnrTimer;
    }

    public int port() {
        return portNum;
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

    @Override
    public String toString() {
        return "QpAttr{mask=[" + QpAttrMask.names(mask) + "], state=" + qpState + ", mtu=" + pathMtu
                + ", destQpn=0x" + Integer.toHexString(destQpNum) + ", access=" + AccessFlags.toString(qpAccessFlags)
                + ", timeout=" + timeout + ", retry=" + retryCnt + ", rnrRetry=" + rnrRetry + ", minRnrTimer="
                + minRnrTimer + ", maxRdAtomic=" + maxRdAtomic + ", maxDestRdAtomic=" + maxDestRdAtomic + ", ah="
                + ahAttr + "}";
    }
}
