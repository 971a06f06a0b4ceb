package org.jrdma.bootstrap;

import java.util.Objects;
import java.util.function.Consumer;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.MemoryRegion;
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
 * ibv_ud_pingpong do (UD with Q_Key {@link #PINGPONG_QKEY}). With {@link #exposing} the local
 * {@link ConnInfo} offers a memory region to the peer's RDMA.
 *
 * @param sendCq the CQ the QP's send queue completes to ({@code ibv_qp_init_attr.send_cq})
 * @param recvCq the CQ the QP's receive queue completes to ({@code ibv_qp_init_attr.recv_cq})
 * @param cap the QP's queue sizes and SGE and inline limits ({@code ibv_qp_cap})
 * @param mtu the path MTU set at RTR ({@code path_mtu}), lowered to the peer's if it is smaller
 * @param port the local port number, from 1 ({@code port_num}; rc_pingpong's {@code -i})
 * @param gidIndex the local GID table index ({@code sgid_index}; rc_pingpong's {@code -g})
 * @param accessFlags the remote access granted at INIT ({@code qp_access_flags}, {@link AccessFlags} bits)
 * @param timeout the local ACK timeout exponent, 4.096 µs × 2^timeout, 0..31 (0: infinite)
 * @param retryCnt how many times a send is retried on timeout, 0..7 ({@code retry_cnt})
 * @param rnrRetry how many times a send is retried on RNR NAK, 0..7, 7 meaning forever ({@code rnr_retry})
 * @param minRnrTimer the RNR NAK timer code advertised to the peer, 0..31 ({@code min_rnr_timer})
 * @param maxRdAtomic outstanding RDMA reads and atomics this QP initiates ({@code max_rd_atomic})
 * @param maxDestRdAtomic outstanding RDMA reads and atomics this QP answers ({@code max_dest_rd_atomic})
 * @param hopLimit the IPv6 hop limit / IPv4 TTL of the address vector's GRH ({@code hop_limit})
 * @param onInit called with the QP in INIT, before RTR: the place to post receives, as
 *     rc_pingpong does, so that the peer's first SEND finds one
 * @param qpType the QP type: {@link QpType#RC}, {@link QpType#UC} or {@link QpType#UD}
 * @param qkey the Q_Key a UD QP is given at INIT and sends with; ignored for RC and UC
 * @param sl the address vector's service level, 0..15
 * @param exposed the memory region whose address and rkey the local {@link ConnInfo} carries
 *     ({@link ConnInfo#buffer}), so the peer may WRITE, READ or use atomics on it; null for none.
 *     The QP is then also given the region's remote access bits (REMOTE_WRITE, REMOTE_READ,
 *     REMOTE_ATOMIC) on top of {@code accessFlags}: the peer needs both the region's and the
 *     QP's permission, and exposing a region means granting it
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
        int sl,
        MemoryRegion exposed) {

    /** ibv_ud_pingpong's (and perftest's) Q_Key. */
    public static final int PINGPONG_QKEY = QpWalk.DEFAULT_QKEY;

    /**
     * Checks the options.
     *
     * @throws NullPointerException if a CQ, {@code cap}, {@code mtu}, {@code onInit} or
     *     {@code qpType} is null
     * @throws IllegalArgumentException if {@code qpType} is not RC, UC or UD, or {@code sl} is
     *     outside 0..15
     */
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
     * Options that expose no memory region (the components before {@code exposed}).
     *
     * @param sendCq the send queue's CQ
     * @param recvCq the receive queue's CQ
     * @param cap the QP's queue sizes
     * @param mtu the path MTU
     * @param port the local port number
     * @param gidIndex the local GID table index
     * @param accessFlags the remote access granted at INIT
     * @param timeout the local ACK timeout exponent
     * @param retryCnt the transport retry count
     * @param rnrRetry the RNR retry count
     * @param minRnrTimer the RNR NAK timer code
     * @param maxRdAtomic outstanding reads and atomics this QP initiates
     * @param maxDestRdAtomic outstanding reads and atomics this QP answers
     * @param hopLimit the GRH's hop limit
     * @param onInit called with the QP in INIT
     * @param qpType RC, UC or UD
     * @param qkey the UD Q_Key
     * @param sl the service level, 0..15
     */
    public RcOptions(CompletionQueue sendCq, CompletionQueue recvCq, QpCap cap, Mtu mtu, int port, int gidIndex,
            int accessFlags, int timeout, int retryCnt, int rnrRetry, int minRnrTimer, int maxRdAtomic,
            int maxDestRdAtomic, int hopLimit, Consumer<QueuePair> onInit, QpType qpType, int qkey, int sl) {
        this(sendCq, recvCq, cap, mtu, port, gidIndex, accessFlags, timeout, retryCnt, rnrRetry, minRnrTimer,
                maxRdAtomic, maxDestRdAtomic, hopLimit, onInit, qpType, qkey, sl, null);
    }

    /**
     * rc_pingpong's settings ({@link QpWalk#rcPingpong}), both queues completing to {@code cq};
     * but LOCAL_WRITE access and hop limit 64 rather than its 0 and 1.
     *
     * @param cq the CQ both the send and the receive queue complete to
     * @return the defaults
     */
    public static RcOptions defaults(CompletionQueue cq) {
        QpWalk p = QpWalk.rcPingpong(QpType.RC);
        return new RcOptions(cq, cq, new QpCap(16, 500, 1, 1, 0), p.pathMtu(), p.port(), 0, AccessFlags.LOCAL_WRITE,
                p.timeout(), p.retryCnt(), p.rnrRetry(), p.minRnrTimer(), p.maxRdAtomic(), p.maxDestRdAtomic(), 64,
                qp -> { }, QpType.RC, PINGPONG_QKEY, 0);
    }

    /**
     * A copy with other queue sizes.
     *
     * @param c the QP's capabilities ({@code ibv_qp_cap})
     * @return the copy
     */
    public RcOptions withCap(QpCap c) {
        return new RcOptions(sendCq, recvCq, c, mtu, port, gidIndex, accessFlags, timeout, retryCnt, rnrRetry,
                minRnrTimer, maxRdAtomic, maxDestRdAtomic, hopLimit, onInit, qpType, qkey, sl, exposed);
    }

    /**
     * A copy with another path MTU.
     *
     * @param m the path MTU to ask for (the smaller of it and the peer's is used)
     * @return the copy
     */
    public RcOptions withMtu(Mtu m) {
        return new RcOptions(sendCq, recvCq, cap, m, port, gidIndex, accessFlags, timeout, retryCnt, rnrRetry,
                minRnrTimer, maxRdAtomic, maxDestRdAtomic, hopLimit, onInit, qpType, qkey, sl, exposed);
    }

    /**
     * A copy with another local GID index (rc_pingpong's {@code -g}).
     *
     * @param index the index in the port's GID table
     * @return the copy
     */
    public RcOptions withGidIndex(int index) {
        return new RcOptions(sendCq, recvCq, cap, mtu, port, index, accessFlags, timeout, retryCnt, rnrRetry,
                minRnrTimer, maxRdAtomic, maxDestRdAtomic, hopLimit, onInit, qpType, qkey, sl, exposed);
    }

    /**
     * A copy with other remote access flags for the QP ({@code qp_access_flags}).
     *
     * @param flags {@link AccessFlags} bits
     * @return the copy
     */
    public RcOptions withAccessFlags(int flags) {
        return new RcOptions(sendCq, recvCq, cap, mtu, port, gidIndex, flags, timeout, retryCnt, rnrRetry,
                minRnrTimer, maxRdAtomic, maxDestRdAtomic, hopLimit, onInit, qpType, qkey, sl, exposed);
    }

    /**
     * A copy with another local ACK timeout.
     *
     * @param t the exponent: 4.096 µs × 2^t, 0..31 (0: infinite)
     * @return the copy
     */
    public RcOptions withTimeout(int t) {
        return new RcOptions(sendCq, recvCq, cap, mtu, port, gidIndex, accessFlags, t, retryCnt, rnrRetry,
                minRnrTimer, maxRdAtomic, maxDestRdAtomic, hopLimit, onInit, qpType, qkey, sl, exposed);
    }

    /**
     * A copy with other retry counts.
     *
     * @param retry the transport retry count, 0..7 ({@code retry_cnt})
     * @param rnr the RNR retry count, 0..7, 7 meaning forever ({@code rnr_retry})
     * @return the copy
     */
    public RcOptions withRetry(int retry, int rnr) {
        return new RcOptions(sendCq, recvCq, cap, mtu, port, gidIndex, accessFlags, timeout, retry, rnr,
                minRnrTimer, maxRdAtomic, maxDestRdAtomic, hopLimit, onInit, qpType, qkey, sl, exposed);
    }

    /**
     * A copy that calls {@code hook} with the QP in INIT, before RTR (to post receives).
     *
     * @param hook the hook
     * @return the copy
     */
    public RcOptions onInit(Consumer<QueuePair> hook) {
        return new RcOptions(sendCq, recvCq, cap, mtu, port, gidIndex, accessFlags, timeout, retryCnt, rnrRetry,
                minRnrTimer, maxRdAtomic, maxDestRdAtomic, hopLimit, hook, qpType, qkey, sl, exposed);
    }

    /**
     * A copy with another QP type: RC, UC or UD.
     *
     * @param type the QP type
     * @return the copy
     */
    public RcOptions withQpType(QpType type) {
        return new RcOptions(sendCq, recvCq, cap, mtu, port, gidIndex, accessFlags, timeout, retryCnt, rnrRetry,
                minRnrTimer, maxRdAtomic, maxDestRdAtomic, hopLimit, onInit, type, qkey, sl, exposed);
    }

    /**
     * A copy with another service level for the address vector (RoCE carries it as a priority).
     *
     * @param serviceLevel the SL, 0..15
     * @return the copy
     */
    public RcOptions withSl(int serviceLevel) {
        return new RcOptions(sendCq, recvCq, cap, mtu, port, gidIndex, accessFlags, timeout, retryCnt, rnrRetry,
                minRnrTimer, maxRdAtomic, maxDestRdAtomic, hopLimit, onInit, qpType, qkey, serviceLevel, exposed);
    }

    /**
     * A copy that offers {@code mr} to the peer: the local {@link ConnInfo} carries its address
     * and rkey, which the peer's {@link RcConnection#remoteBuffer()} returns, and the QP is
     * given the region's remote access bits. The exchange's codec must have fields for them
     * ({@code TcpOptions.perftest()}, or {@link PerftestKeyCodec} for a file); rc_pingpong's
     * refuses to send them.
     *
     * @param mr the region the peer may reach, registered with the remote access it needs
     * @return the copy
     * @throws NullPointerException if {@code mr} is null
     */
    public RcOptions exposing(MemoryRegion mr) {
        Objects.requireNonNull(mr, "mr");
        return new RcOptions(sendCq, recvCq, cap, mtu, port, gidIndex, accessFlags, timeout, retryCnt, rnrRetry,
                minRnrTimer, maxRdAtomic, maxDestRdAtomic, hopLimit, onInit, qpType, qkey, sl, mr);
    }

    /**
     * The access the QP is given at INIT: {@link #accessFlags} and, when a region is exposed,
     * its REMOTE_WRITE, REMOTE_READ and REMOTE_ATOMIC bits.
     *
     * @return {@link AccessFlags} bits
     */
    public int qpAccessFlags() {
        int remote = AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC;
        return exposed == null ? accessFlags : accessFlags | (exposed.access() & remote);
    }
}
