package org.jrdma.bootstrap;

import java.util.Objects;
import java.util.function.Consumer;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QpWalk;
import org.jrdma.verbs.QueuePair;

/**
 * What {@link RcConnector} needs besides the PD and the exchange. Defaults are
 * rc_pingpong's (ROCEV2-FACTS §5.2): MTU 1024, timeout 14 (67 ms), retry 7, RNR retry 7,
 * min RNR timer 12 (0.64 ms), one outstanding read each way, port 1, GID index 0, SL 0. The QP
 * type is RC unless {@link #withQpType} says UC or UD, which connect as ibv_uc_pingpong and
 * ibv_ud_pingpong do (UD with Q_Key {@link #PINGPONG_QKEY}).
 *
 * @param onInit called with the QP in INIT, before RTR: the place to post receives, as
 *     rc_pingpong does, so that the peer's first SEND finds one
 */
public record RcOptions(
        CompletionQueue sendCq,
        CompletionQueue recvCq,
        QpCap cap,
        Mtu mtu,
        int port,
        int gidIndex,
        int accessFlags,
        int timeout,
        int retryCnt,
        int rnrRetry,
        int minRnrTimer,
        int maxRdAtomic,
        int maxDestRdAtomic,
        int hopLimit,
        Consumer<QueuePair> onInit,
        QpType qpType,
        int qkey,
        int sl) {

    /** ibv_ud_pingpong's (and perftest's) Q_Key. */
    public static final int PINGPONG_QKEY = QpWalk.DEFAULT_QKEY;

    public RcOptions {
        Objects.requireNonNull(sendCq, "sendCq");
        Objects.requireNonNull(recvCq, "recvCq");
        Objects.requireNonNull(cap, "cap");
        Objects.requireNonNull(mtu, "mtu");
        Objects.requireNonNull(onInit, "onInit");
        Objects.requireNonNull(qpType, "qpType");
        if (qpType != QpType.RC && qpType != QpType.UC && qpType != QpType.UD) {
            throw new IllegalArgumentException("RcConnector connects RC, UC or UD QPs, not " + qpType);
        }
        if (sl < 0 || sl > 15) {
            throw new IllegalArgumentException("service level must be 0..15, not " + sl);
        }
    }

    /**
     * rc_pingpong's settings ({@link QpWalk#rcPingpong}), both queues completing to {@code cq};
     * but LOCAL_WRITE access and hop limit 64 rather than its 0 and 1.
     */
    public static RcOptions defaults(CompletionQueue cq) {
        QpWalk p = QpWalk.rcPingpong(QpType.RC);
        return new RcOptions(cq, cq, new QpCap(16, 500, 1, 1, 0), p.pathMtu(), p.port(), 0, AccessFlags.LOCAL_WRITE,
                p.timeout(), p.retryCnt(), p.rnrRetry(), p.minRnrTimer(), p.maxRdAtomic(), p.maxDestRdAtomic(), 64,
                qp -> { }, QpType.RC, PINGPONG_QKEY, 0);
    }

    public RcOptions withCap(QpCap c) {
        return new RcOptions(sendCq, recvCq, c, mtu, port, gidIndex, accessFlags, timeout, retryCnt, rnrRetry,
                minRnrTimer, maxRdAtomic, maxDestRdAtomic, hopLimit, onInit, qpType, qkey, sl);
    }

    public RcOptions withMtu(Mtu m) {
        return new RcOptions(sendCq, recvCq, cap, m, port, gidIndex, accessFlags, timeout, retryCnt, rnrRetry,
                minRnrTimer, maxRdAtomic, maxDestRdAtomic, hopLimit, onInit, qpType, qkey, sl);
    }

    public RcOptions withGidIndex(int index) {
        return new RcOptions(sendCq, recvCq, cap, mtu, port, index, accessFlags, timeout, retryCnt, rnrRetry,
                minRnrTimer, maxRdAtomic, maxDestRdAtomic, hopLimit, onInit, qpType, qkey, sl);
    }

    public RcOptions withAccessFlags(int flags) {
        return new RcOptions(sendCq, recvCq, cap, mtu, port, gidIndex, flags, timeout, retryCnt, rnrRetry,
                minRnrTimer, maxRdAtomic, maxDestRdAtomic, hopLimit, onInit, qpType, qkey, sl);
    }

    public RcOptions withTimeout(int t) {
        return new RcOptions(sendCq, recvCq, cap, mtu, port, gidIndex, accessFlags, t, retryCnt, rnrRetry,
                minRnrTimer, maxRdAtomic, maxDestRdAtomic, hopLimit, onInit, qpType, qkey, sl);
    }

    public RcOptions withRetry(int retry, int rnr) {
        return new RcOptions(sendCq, recvCq, cap, mtu, port, gidIndex, accessFlags, timeout, retry, rnr,
                minRnrTimer, maxRdAtomic, maxDestRdAtomic, hopLimit, onInit, qpType, qkey, sl);
    }

    public RcOptions onInit(Consumer<QueuePair> hook) {
        return new RcOptions(sendCq, recvCq, cap, mtu, port, gidIndex, accessFlags, timeout, retryCnt, rnrRetry,
                minRnrTimer, maxRdAtomic, maxDestRdAtomic, hopLimit, hook, qpType, qkey, sl);
    }

    /** RC, UC or UD. */
    public RcOptions withQpType(QpType type) {
        return new RcOptions(sendCq, recvCq, cap, mtu, port, gidIndex, accessFlags, timeout, retryCnt, rnrRetry,
                minRnrTimer, maxRdAtomic, maxDestRdAtomic, hopLimit, onInit, type, qkey, sl);
    }

    /** The service level of the address vector (RoCE carries it as a priority; 0..15). */
    public RcOptions withSl(int serviceLevel) {
        return new RcOptions(sendCq, recvCq, cap, mtu, port, gidIndex, accessFlags, timeout, retryCnt, rnrRetry,
                minRnrTimer, maxRdAtomic, maxDestRdAtomic, hopLimit, onInit, qpType, qkey, serviceLevel);
    }
}
