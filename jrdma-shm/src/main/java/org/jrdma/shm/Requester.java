package org.jrdma.shm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jrdma.shm.ring.MpmcRing;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AsyncEventType;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.WcFlags;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WrOpcode;

/**
 * The RC requester and, since the peer's memory and queues are mapped here, the responder's
 * checks too: a WR at the head of the send queue runs to completion in one step — protection
 * domain, rkey, range and access checked in the peer's tables before a byte moves, then the
 * copy, then the completions (the peer's receive completion first, then ours) — or it waits
 * where RC waits (RNR, a peer QP not ready: the retry timer), or it fails with the status RC
 * gives and takes the QP to ERR. The peer's QP goes to ERR too when RC says the responder does
 * (access and length errors), with the reason left for its owner to raise as an async event.
 */
final class Requester {
    private static final int DONE = 0;
    private static final int STALL = 1;
    private static final int FAILED = 2;
    /** IBA table 45 (RNR NAK timer field), in nanoseconds; code 0 is the longest. */
    private static final long[] RNR_NANOS = {
        655_360_000L, 10_000L, 20_000L, 30_000L, 40_000L, 60_000L, 80_000L, 120_000L, 160_000L, 240_000L, 320_000L,
        480_000L, 640_000L, 960_000L, 1_280_000L, 1_920_000L, 2_560_000L, 3_840_000L, 5_120_000L, 7_680_000L,
        10_240_000L, 15_360_000L, 20_480_000L, 30_720_000L, 40_960_000L, 61_440_000L, 81_920_000L, 122_880_000L,
        163_840_000L, 245_760_000L, 327_680_000L, 491_520_000L};
    /** With timeout 0 (no transport timer) a missing peer is looked for again at this pace. */
    private static final long NO_TIMER_RECHECK = 10_000_000L;
    /** How often a WR waiting for its peer QP looks again within RC's retry time. */
    private static final long RECHECK = 1_000_000L;

    private final ShmQp qp;
    private final Target remote = new Target();

    Requester(ShmQp qp) {
        this.qp = qp;
    }

    /** {@link #drain}'s {@code now} when the caller has not read the clock (a post: most WRs never wait). */
    static final long NOW_UNREAD = Long.MIN_VALUE;

    /**
     * Runs WRs from the head while they complete; returns when the head must wait (its deadline)
     * or none is left. {@code now} is System.nanoTime(), or {@link #NOW_UNREAD}.
     */
    long drain(long now) {
        SendQueue sq = qp.sq;
        while (qp.state == QpState.RTS) {
            SendWqe w = sq.peek();
            if (w == null) {
                return Long.MAX_VALUE;
            }
            if (w.stalled) {
                if (now == NOW_UNREAD) {
                    now = System.nanoTime();
                }
                if (now - w.deadline < 0) {
                    return w.deadline;
                }
            }
            int r;
            try {
                r = execute(w, now);
            } catch (RuntimeException e) {
                // memory freed or unmapped under us: the request fails, the process goes on
                r = fail(w, WcStatus.LOC_QP_OP_ERR, null);
            }
            if (r == DONE) {
                sq.pop();
                if (qp.takeSendCqOverrun()) {
                    qp.toError(null); // the rest flush into the same full CQ: their completions are lost, as on a NIC
                    return Long.MAX_VALUE;
                }
            } else if (r == STALL) {
                qp.node.progress.wake();
                return w.deadline;
            } else {
                return Long.MAX_VALUE;
            }
        }
        return Long.MAX_VALUE;
    }

    private int execute(SendWqe w, long now) {
        if (w.postError != null) {
            return fail(w, w.postError, null);
        }
        PeerNode p = qp.peer;
        int rq = qp.destQpn;
        QpState rs = p == null || p.closedFlag() ? null : p.qpState(rq);
        if (rs != QpState.RTR && rs != QpState.RTS && rs != QpState.SQD) {
            return retry(w, now, p);
        }
        int rpd = p.qpInt(rq, Layout.QP_PD);
        int racc = p.qpInt(rq, Layout.QP_ACCESS);
        return switch (w.opcode) {
            case SEND, SEND_WITH_IMM -> send(w, now, p, rq, rpd);
            case RDMA_WRITE, RDMA_WRITE_WITH_IMM -> write(w, now, p, rq, rpd, racc);
            case RDMA_READ -> read(w, p, rq, rpd, racc);
            case ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD -> atomic(w, p, rq, rpd, racc);
            default -> fail(w, WcStatus.LOC_QP_OP_ERR, null);
        };
    }

    private MpmcRing receiveRing(PeerNode p, int rq) {
        int srq = p.qpInt(rq, Layout.QP_SRQ);
        return srq != 0 ? p.srqRing(srq - 1) : p.recvRing(rq);
    }

    private int send(SendWqe w, long now, PeerNode p, int rq, int rpd) {
        MpmcRing ring = receiveRing(p, rq);
        long pos = ring == null ? -1 : ring.claimConsume();
        if (pos < 0) {
            return rnr(w, now, p, rq);
        }
        MemorySegment m = ring.segment();
        long e = ring.entry(pos);
        long wrId = m.get(ValueLayout.JAVA_LONG, e);
        int count = m.get(ValueLayout.JAVA_INT, e + 8);
        int rcq = p.qpInt(rq, Layout.QP_RECV_CQ);
        if (count < 0 || count > (ring.entryBytes() - 16) / 16) {
            ring.release(pos);
            return responderError(w, p, rq, rcq, wrId, WcStatus.LOC_QP_OP_ERR, WcStatus.REM_OP_ERR, AsyncEventType.QP_FATAL);
        }
        long room = 0;
        for (int i = 0; i < count; i++) {
            room += Integer.toUnsignedLong(m.get(ValueLayout.JAVA_INT, e + 16 + 16L * i + 8));
        }
        if (room < w.total) {
            ring.release(pos);
            return responderError(w, p, rq, rcq, wrId, WcStatus.LOC_LEN_ERR, WcStatus.REM_INV_REQ_ERR, AsyncEventType.QP_REQ_ERR);
        }
        int li = 0;
        long lOff = 0;
        long left = w.total;
        for (int i = 0; i < count && left > 0; i++) {
            long at = e + 16 + 16L * i;
            long addr = m.get(ValueLayout.JAVA_LONG, at);
            long len = Math.min(left, Integer.toUnsignedLong(m.get(ValueLayout.JAVA_INT, at + 8)));
            int lkey = m.get(ValueLayout.JAVA_INT, at + 12);
            if (len == 0) {
                continue;
            }
            if (p.resolve(lkey, addr, len, AccessFlags.LOCAL_WRITE, rpd, remote) != PeerNode.OK) {
                ring.release(pos);
                return responderError(w, p, rq, rcq, wrId, WcStatus.LOC_PROT_ERR, WcStatus.REM_OP_ERR, AsyncEventType.QP_ACCESS_ERR);
            }
            long done = 0;
            while (done < len) {
                long piece = Math.min(w.length[li] - lOff, len - done);
                if (!remote.write(done, w.segment[li], w.offset[li] + lOff, piece)) {
                    if (!remote.mapped()) {
                        p.cmaRefused(remote.cmaErrno);
                    }
                    ring.release(pos);
                    return responderError(w, p, rq, rcq, wrId, WcStatus.LOC_PROT_ERR, WcStatus.REM_OP_ERR,
                            AsyncEventType.QP_ACCESS_ERR);
                }
                done += piece;
                lOff += piece;
                if (lOff == w.length[li]) {
                    li++;
                    lOff = 0;
                }
            }
            left -= len;
        }
        ring.release(pos);
        boolean imm = w.opcode == WrOpcode.SEND_WITH_IMM;
        if (!p.complete(rcq, wrId, WcStatus.SUCCESS.value(), WcOpcode.RECV.value(), (int) w.total, imm ? w.immData : 0, rq,
                qp.qpn, WcFlags.GRH | (imm ? WcFlags.WITH_IMM : 0), w.solicited)) {
            p.breakQp(rq, -1); // its CQ overran: CQ_ERR (raised by its owner) and the QP to ERR
        }
        consumed(p, rq);
        served(p, rq, w.total);
        return succeed(w);
    }

    private int write(SendWqe w, long now, PeerNode p, int rq, int rpd, int racc) {
        if (w.total > 0) { // a zero-length WRITE checks no rkey (IBA 9.4.5; rxe alike)
            if ((racc & AccessFlags.REMOTE_WRITE) == 0) {
                return invalidRequest(w, p, rq); // the QP does not take WRITEs at all
            }
            if (p.resolve(w.rkey, w.remoteAddr, w.total, AccessFlags.REMOTE_WRITE, rpd, remote) != PeerNode.OK) {
                return remoteAccessError(w, p, rq);
            }
        }
        MpmcRing ring = null;
        long pos = -1;
        if (w.opcode == WrOpcode.RDMA_WRITE_WITH_IMM) {
            ring = receiveRing(p, rq);
            pos = ring == null ? -1 : ring.claimConsume();
            if (pos < 0) {
                return rnr(w, now, p, rq);
            }
        }
        long at = 0;
        for (int i = 0; i < w.sgeCount; i++) {
            if (!remote.write(at, w.segment[i], w.offset[i], w.length[i])) {
                if (ring != null) {
                    ring.release(pos);
                }
                return remoteAccessError(w, p, rq);
            }
            at += w.length[i];
        }
        if (ring != null) {
            long wrId = ring.segment().get(ValueLayout.JAVA_LONG, ring.entry(pos));
            ring.release(pos);
            if (!p.complete(p.qpInt(rq, Layout.QP_RECV_CQ), wrId, WcStatus.SUCCESS.value(), WcOpcode.RECV_RDMA_WITH_IMM.value(),
                    (int) w.total, w.immData, rq, qp.qpn, WcFlags.GRH | WcFlags.WITH_IMM, w.solicited)) {
                p.breakQp(rq, -1);
            }
            consumed(p, rq);
        }
        served(p, rq, w.total);
        return succeed(w);
    }

    private int read(SendWqe w, PeerNode p, int rq, int rpd, int racc) {
        if (w.total > 0) {
            if ((racc & AccessFlags.REMOTE_READ) == 0 || p.qpInt(rq, Layout.QP_MAX_DEST_RD) == 0) {
                return invalidRequest(w, p, rq); // not taken, or no responder resources for it (max_dest_rd_atomic 0)
            }
            if (p.resolve(w.rkey, w.remoteAddr, w.total, AccessFlags.REMOTE_READ, rpd, remote) != PeerNode.OK) {
                return remoteAccessError(w, p, rq);
            }
        }
        long at = 0;
        for (int i = 0; i < w.sgeCount; i++) {
            if (!remote.read(at, w.segment[i], w.offset[i], w.length[i])) {
                return remoteAccessError(w, p, rq);
            }
            at += w.length[i];
        }
        served(p, rq, 0);
        return succeed(w);
    }

    private int atomic(SendWqe w, PeerNode p, int rq, int rpd, int racc) {
        if ((w.remoteAddr & 7) != 0 || (racc & AccessFlags.REMOTE_ATOMIC) == 0 || p.qpInt(rq, Layout.QP_MAX_DEST_RD) == 0) {
            return invalidRequest(w, p, rq); // IBA: a misaligned atomic, or one the QP does not take
        }
        if (p.resolve(w.rkey, w.remoteAddr, 8, AccessFlags.REMOTE_ATOMIC, rpd, remote) != PeerNode.OK
                || !remote.atomicCapable()) {
            return remoteAccessError(w, p, rq);
        }
        long original = w.opcode == WrOpcode.ATOMIC_CMP_AND_SWP
                ? remote.compareAndSwap(w.compareAdd, w.swap)
                : remote.fetchAndAdd(w.compareAdd);
        w.segment[0].set(ValueLayout.JAVA_LONG_UNALIGNED, w.offset[0], original);
        served(p, rq, 0);
        return succeed(w);
    }

    /** An SRQ whose level fell below its armed limit: tell its owner (SRQ_LIMIT_REACHED). */
    private void consumed(PeerNode p, int rq) {
        int srq = p.qpInt(rq, Layout.QP_SRQ);
        if (srq != 0) {
            p.srqConsumed(srq - 1);
        }
    }

    /** Counts a served request in the peer QP's slot (its rcvd_packets), in packets of the path MTU. */
    private void served(PeerNode p, int rq, long bytes) {
        int mtu = qp.pathMtu.bytes();
        p.countReceived(rq, Math.max(1, (bytes + mtu - 1) / mtu));
    }

    private int succeed(SendWqe w) {
        if (w.signaled) {
            qp.completeSend(w, WcStatus.SUCCESS);
        }
        return DONE;
    }

    private int invalidRequest(SendWqe w, PeerNode p, int rq) {
        p.breakQp(rq, AsyncEventType.QP_REQ_ERR.value());
        return fail(w, WcStatus.REM_INV_REQ_ERR, null);
    }

    private int remoteAccessError(SendWqe w, PeerNode p, int rq) {
        if (!remote.mapped()) {
            p.cmaRefused(remote.cmaErrno);
        }
        p.breakQp(rq, AsyncEventType.QP_ACCESS_ERR.value());
        return fail(w, WcStatus.REM_ACCESS_ERR, null);
    }

    private int responderError(SendWqe w, PeerNode p, int rq, int rcq, long wrId, WcStatus theirs, WcStatus ours,
            AsyncEventType event) {
        p.complete(rcq, wrId, theirs.value(), WcOpcode.RECV.value(), 0, 0, rq, qp.qpn, 0, false);
        p.breakQp(rq, event.value());
        return fail(w, ours, null);
    }

    /** RC's transport timer: the peer QP is not there (or not ready yet); try again until retry_cnt runs out. */
    private int retry(SendWqe w, long now, PeerNode p) {
        if (now == NOW_UNREAD) {
            now = System.nanoTime();
        }
        if (qp.timeout == 0) { // no timer: RC would wait for ever; a peer that is gone still ends it
            if (p == null || p.closedFlag()) {
                return fail(w, WcStatus.RETRY_EXC_ERR, null);
            }
            w.stalled = true;
            w.deadline = now + NO_TIMER_RECHECK;
            return STALL;
        }
        long period = 4096L << Math.min(qp.timeout, 31);
        if (!w.stalled || w.firstTry == 0) {
            w.firstTry = now;
        }
        // RC gives up after the first try and retry_cnt retries, a timeout apart. Where a NIC can
        // only learn of the peer by trying again, we can look: the peer QP is checked every
        // millisecond (a connect race, a peer still walking to RTR, ends at once), and the give-up
        // time is RC's.
        if (now - w.firstTry >= (w.retryLeft + 1L) * period) {
            return fail(w, WcStatus.RETRY_EXC_ERR, null);
        }
        w.stalled = true;
        w.deadline = now + Math.min(period, RECHECK);
        return STALL;
    }

    private int rnr(SendWqe w, long now, PeerNode p, int rq) {
        if (now == NOW_UNREAD) {
            now = System.nanoTime();
        }
        if (qp.rnrRetry != 7) {
            if (w.rnrLeft == 0) {
                return fail(w, WcStatus.RNR_RETRY_EXC_ERR, null);
            }
            w.rnrLeft--;
        }
        w.stalled = true;
        w.deadline = now + RNR_NANOS[p.qpInt(rq, Layout.QP_MIN_RNR) & 31];
        return STALL;
    }

    private int fail(SendWqe w, WcStatus status, AsyncEventType event) {
        qp.completeSend(w, status);
        qp.sq.pop();
        qp.toError(event);
        return FAILED;
    }

    /** Every WR still queued completes WR_FLUSH_ERR (the QP is in ERR). */
    void flush() {
        SendQueue sq = qp.sq;
        for (SendWqe w = sq.peek(); w != null; w = sq.peek()) {
            qp.completeSend(w, WcStatus.WR_FLUSH_ERR);
            sq.pop();
        }
    }

    /** The peer's node is gone: the head completes as RC's retries would end, the rest flush. */
    void peerLost() {
        SendWqe w = qp.sq.peek();
        if (w != null) {
            qp.completeSend(w, WcStatus.RETRY_EXC_ERR);
            qp.sq.pop();
        }
        qp.toError(null);
    }

    void forget() {
        SendWqe w = qp.sq.peek();
        if (w != null) {
            w.stalled = false;
        }
    }
}
