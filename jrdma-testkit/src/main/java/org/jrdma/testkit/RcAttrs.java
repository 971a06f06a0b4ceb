package org.jrdma.testkit;

import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QpWalk;

/**
 * The attributes an RC QP is connected with: {@link QpWalk#rcPingpong}'s (ROCEV2-FACTS §5.2):
 * timeout 14 (67 ms), retry 7, RNR retry 7 (infinite), min RNR timer 12, one outstanding
 * READ/atomic each way. The constants name them for suites that assert on them.
 */
public final class RcAttrs {
    /** rc_pingpong's local ACK timeout: 14 (4.096 µs × 2^14 ≈ 67 ms). */
    public static final int TIMEOUT = pingpong().timeout();
    /** rc_pingpong's retry count: 7. */
    public static final int RETRY_CNT = pingpong().retryCnt();
    /** rc_pingpong's RNR retry count: 7 (infinite). */
    public static final int RNR_RETRY = pingpong().rnrRetry();
    /** rc_pingpong's min RNR timer: 12 (0.64 ms). */
    public static final int MIN_RNR_TIMER = pingpong().minRnrTimer();
    /** max_rd_atomic and max_dest_rd_atomic, which rc_pingpong sets alike. */
    public static final int RD_ATOMIC = pingpong().maxRdAtomic();
    /** What loopback QPs allow their peer: everything but atomics, which a device may lack. */
    public static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ;
    /** Any Q_Key: RC ignores it, and a modify that carries it is refused. */
    public static final int QKEY = 0x11111111;

    private RcAttrs() {
    }

    /** A fresh walk each time: a builder is mutable, so none is shared. */
    private static QpWalk pingpong() {
        return QpWalk.rcPingpong(QpType.RC);
    }

    /**
     * RESET → INIT with exactly its required attributes (P_Key index 0).
     *
     * @param port the port number
     * @param access the remote access flags ({@code AccessFlags} bits)
     * @return the attributes, with their mask
     */
    public static QpAttr init(int port, int access) {
        return pingpong().port(port).accessFlags(access).init();
    }

    /**
     * INIT → RTR with exactly its required attributes.
     *
     * @param av the address vector of the peer
     * @param mtu the path MTU
     * @param destQpn the peer's QPN
     * @param rqPsn the first PSN expected from the peer
     * @return the attributes, with their mask
     */
    public static QpAttr rtr(AhAttr av, Mtu mtu, int destQpn, int rqPsn) {
        return pingpong().ahAttr(av).pathMtu(mtu).destQpNum(destQpn).rqPsn(rqPsn).rtr();
    }

    /**
     * RTR → RTS with exactly its required attributes.
     *
     * @param sqPsn the first PSN sent
     * @return the attributes, with their mask
     */
    public static QpAttr rts(int sqPsn) {
        return pingpong().sqPsn(sqPsn).rts();
    }

    /**
     * Every attribute that has a setter, each set to a value valid for {@code from → to}, so
     * that a test picks what a modify carries with an explicit mask alone
     * ({@link org.jrdma.verbs.QueuePair#modify(QpAttr, int)}). ALT_PATH, PATH_MIG_STATE and
     * RATE_LIMIT have no setter: only their mask bits can be sent.
     *
     * @param from the state the modify starts from
     * @param to the state it leads to
     * @param av the address vector
     * @param mtu the path MTU
     * @param port the port number
     * @param destQpn the peer's QPN
     * @param psn the PSN, for both RQ and SQ
     * @param cap the QP's capabilities
     * @return the attributes
     */
    public static QpAttr every(QpState from, QpState to, AhAttr av, Mtu mtu, int port, int destQpn, int psn,
            QpCap cap) {
        return new QpAttr().state(to).curState(from).pathMtu(mtu).qkey(QKEY).rqPsn(psn).sqPsn(psn)
                .destQpNum(destQpn).accessFlags(ACCESS).cap(cap).ahAttr(av).pkeyIndex(0).enSqdAsyncNotify(false)
                .maxRdAtomic(RD_ATOMIC).maxDestRdAtomic(RD_ATOMIC).minRnrTimer(MIN_RNR_TIMER).port(port)
                .timeout(TIMEOUT).retryCnt(RETRY_CNT).rnrRetry(RNR_RETRY);
    }
}
