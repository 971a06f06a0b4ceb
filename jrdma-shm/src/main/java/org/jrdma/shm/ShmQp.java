package org.jrdma.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import org.jrdma.shm.ring.MpmcRing;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.AsyncEventType;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.PostException;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpAttrMask;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.SgList;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WrOpcode;
import org.jrdma.verbs.spi.PostLists;
import org.jrdma.verbs.spi.QpTransitions;

/**
 * An RC queue pair. Its receive queue is a ring in the node's control memory that the peer's
 * requester consumes; its send queue is this process's, and posting runs the requester on the
 * caller's thread (as rxe does): a WRITE is a copy into the peer's memory, a SEND a copy into
 * the buffer of the peer's oldest receive. A request that must wait (RNR, or a peer QP that is
 * not ready yet: RC's retry) stays at the head of the queue and the node's progress thread
 * tries it again when its timer runs out. Everything under the QP's monitor.
 */
final class ShmQp implements QueuePair {
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle LONG_HANDLE = ValueLayout.JAVA_LONG.varHandle();
    final ShmPd pd;
    final Node node;
    final int index;
    final int qpn;
    final long slot;
    final ShmCq sendCq;
    final ShmCq recvCq;
    final ShmSrq srq;
    final QpCap cap;
    final boolean sqSigAll;
    private final Arena arena = Arena.ofShared();
    final SendQueue sq;
    final RecvRing rq;
    final Requester requester;
    private final long rqBytes;

    // Attributes (modify_qp); read by query.
    QpState state = QpState.RESET;
    int accessFlags;
    Mtu pathMtu = Mtu.MTU_1024;
    int destQpn;
    int rqPsn;
    int sqPsn;
    int minRnrTimer;
    int timeout;
    int retryCnt = 7;
    int rnrRetry = 7;
    int maxRdAtomic;
    int maxDestRdAtomic;
    int pkeyIndex;
    int port;
    int qkey;
    boolean enSqdNotify;
    AhAttr ah;
    PeerNode peer;
    private boolean closed;
    private boolean sendCqOverran;

    ShmQp(ShmPd pd, QpInitAttr init) {
        if (init.qpType() != QpType.RC) {
            throw new VerbsException(Errno.EOPNOTSUPP, "create_qp: " + init.qpType()
                    + " QPs are not supported by the shm provider (RC only)");
        }
        if (!(init.sendCq() instanceof ShmCq s) || !(init.recvCq() instanceof ShmCq r)) {
            throw new VerbsException(Errno.EINVAL, "create_qp: send and receive CQs of this device are required");
        }
        if (s.node != pd.node() || r.node != pd.node()) {
            throw new VerbsException(Errno.EINVAL, "create_qp: the CQs belong to another device");
        }
        QpCap c = init.cap();
        check("max_send_wr", c.maxSendWr(), 1, Limits.MAX_QP_WR);
        check("max_send_sge", c.maxSendSge(), 0, Limits.MAX_SGE);
        check("max_inline_data", c.maxInlineData(), 0, Limits.MAX_INLINE);
        ShmSrq shared = null;
        if (init.srq() != null) {
            if (!(init.srq() instanceof ShmSrq q) || q.pd != pd) {
                throw new VerbsException(Errno.EINVAL, "create_qp: the SRQ belongs to another protection domain or provider");
            }
            shared = q;
        } else {
            check("max_recv_wr", c.maxRecvWr(), 1, Limits.MAX_QP_WR);
            check("max_recv_sge", c.maxRecvSge(), 0, Limits.MAX_SGE);
        }
        this.pd = pd;
        this.node = pd.node();
        this.sendCq = s;
        this.recvCq = r;
        this.srq = shared;
        this.sqSigAll = init.sqSigAll();
        this.cap = new QpCap(c.maxSendWr(), shared == null ? c.maxRecvWr() : 0, Math.max(1, c.maxSendSge()),
                shared == null ? Math.max(1, c.maxRecvSge()) : 0, c.maxInlineData());
        this.index = node.claimQp();
        int n;
        do {
            n = ((Node.random() & 0x3FFF) << 10 | index) & 0xFFFFFF;
        } while (n <= 1);
        this.qpn = n;
        this.slot = Layout.qpSlot(index);
        try {
            this.sq = new SendQueue(cap.maxSendWr(), cap.maxSendSge(), cap.maxInlineData(), arena);
            if (shared == null) {
                int capacity = Integer.highestOneBit(Math.max(2, cap.maxRecvWr()) * 2 - 1);
                int entry = Layout.recvEntryBytes(cap.maxRecvSge());
                rqBytes = MpmcRing.bytesFor(capacity, entry);
                long base = node.heap.allocate(rqBytes, "create_qp");
                rq = new RecvRing(MpmcRing.format(node.ctl, base, capacity, entry), cap.maxRecvWr(), cap.maxRecvSge());
            } else {
                rqBytes = 0;
                rq = null;
            }
        } catch (RuntimeException e) {
            node.freeQp(index);
            arena.close();
            throw e;
        }
        this.requester = new Requester(this);
        s.attachQp();
        r.attachQp();
        if (shared != null) {
            shared.attach();
        }
        MemorySegment ctl = node.ctl;
        ctl.set(ValueLayout.JAVA_INT, slot + Layout.QP_PD, pd.id);
        ctl.set(ValueLayout.JAVA_INT, slot + Layout.QP_ACCESS, 0);
        ctl.set(ValueLayout.JAVA_INT, slot + Layout.QP_RECV_CQ, r.index);
        ctl.set(ValueLayout.JAVA_INT, slot + Layout.QP_SRQ, shared == null ? 0 : shared.index + 1);
        ctl.set(ValueLayout.JAVA_LONG, slot + Layout.QP_RQ_BASE, rq == null ? 0 : rq.ring.base());
        ctl.set(ValueLayout.JAVA_INT, slot + Layout.QP_RQ_CAPACITY, rq == null ? 0 : rq.ring.capacity());
        ctl.set(ValueLayout.JAVA_INT, slot + Layout.QP_RQ_SGE, cap.maxRecvSge());
        ctl.set(ValueLayout.JAVA_INT, slot + Layout.QP_MIN_RNR, 0);
        ctl.set(ValueLayout.JAVA_INT, slot + Layout.QP_ERROR_CAUSE, 0);
        ctl.set(ValueLayout.JAVA_INT, slot + Layout.QP_DEST_QPN, 0);
        ctl.set(ValueLayout.JAVA_LONG, slot + Layout.QP_RCVD_PACKETS, 0L);
        INT.setRelease(ctl, slot + Layout.QP_STATE, QpState.RESET.ordinal());
        node.qps[index] = this;
        INT.setRelease(ctl, slot + Layout.QP_QPN, qpn);
    }

    private static void check(String what, int value, int min, int max) {
        if (value < min || value > max) {
            throw new VerbsException(Errno.EINVAL, "create_qp: " + what + " " + value + " outside " + min + ".." + max);
        }
    }

    @Override
    public int qpNum() {
        return qpn;
    }

    @Override
    public QpType qpType() {
        return QpType.RC;
    }

    @Override
    public synchronized QpState state() {
        return state;
    }

    @Override
    public ProtectionDomain pd() {
        return pd;
    }

    /**
     * {@code rcvd_packets}: the requests the peer's requester served to this QP, counted as RoCE
     * counts their packets (path-MTU units), as the soft provider's counter of that name.
     */
    @Override
    public java.util.Map<String, Long> counters() {
        return java.util.Map.of("rcvd_packets", (long) LONG_HANDLE.getAcquire(node.ctl, slot + Layout.QP_RCVD_PACKETS));
    }

    @Override
    public CompletionQueue sendCq() {
        return sendCq;
    }

    @Override
    public CompletionQueue recvCq() {
        return recvCq;
    }

    @Override
    public QpCap cap() {
        return cap;
    }

    /** Publishes the state for peers (their requests look at it before they touch our queues). */
    void publishState(QpState s) {
        state = s;
        INT.setRelease(node.ctl, slot + Layout.QP_STATE, s.ordinal());
    }

    QpState sharedState() {
        int v = (int) INT.getAcquire(node.ctl, slot + Layout.QP_STATE);
        return PeerNode.STATES[v];
    }

    @Override
    public void modify(QpAttr attr, int mask) {
        synchronized (this) {
            checkOpen("modify_qp");
            noticeRemoteError();
            QpState current = state;
            QpState target = QpTransitions.check(QpType.RC, current, attr, mask);
            String what = "modify_qp " + current + "→" + target;
            if (QpAttrMask.PORT.in(mask)) {
                ShmContext.checkPort(what, attr.port());
            }
            if (QpAttrMask.PKEY_INDEX.in(mask) && attr.pkeyIndex() != 0) {
                throw new VerbsException(Errno.EINVAL, what + ": PKEY_INDEX " + attr.pkeyIndex() + " outside the P_Key table (1 entry: 0)");
            }
            if (QpAttrMask.PATH_MTU.in(mask) && attr.pathMtu().bytes() > Mtu.MTU_4096.bytes()) {
                throw new VerbsException(Errno.EINVAL, what + ": PATH_MTU " + attr.pathMtu().bytes() + " exceeds the port's active MTU 4096");
            }
            if (QpAttrMask.MAX_QP_RD_ATOMIC.in(mask) && attr.maxRdAtomic() > Limits.MAX_RD_ATOMIC) {
                throw new VerbsException(Errno.EINVAL, what + ": MAX_QP_RD_ATOMIC " + attr.maxRdAtomic() + " exceeds " + Limits.MAX_RD_ATOMIC);
            }
            if (QpAttrMask.MAX_DEST_RD_ATOMIC.in(mask) && attr.maxDestRdAtomic() > Limits.MAX_RD_ATOMIC) {
                throw new VerbsException(Errno.EINVAL, what + ": MAX_DEST_RD_ATOMIC " + attr.maxDestRdAtomic() + " exceeds " + Limits.MAX_RD_ATOMIC);
            }
            PeerNode to = null;
            if (QpAttrMask.AV.in(mask)) {
                AhAttr av = attr.ahAttr();
                if (!av.isGlobal) {
                    throw new VerbsException(Errno.EINVAL, what + ": AV has no GRH; the shm device addresses peers by GID"
                            + " (rc_pingpong: pass -g 0)");
                }
                if (av.sgidIndex != 0) {
                    throw new VerbsException(Errno.EINVAL, what + ": AV sgid_index " + av.sgidIndex + " outside the GID table (1 entry: 0)");
                }
                to = node.peer(av.dgid); // maps the peer's node now: a wrong GID fails here, not in the data path
            }
            apply(attr, mask);
            if (to != null) {
                ah = attr.ahAttr().copy();
                peer = to;
            }
            moveTo(target);
        }
    }

    private void apply(QpAttr attr, int mask) {
        MemorySegment ctl = node.ctl;
        if (QpAttrMask.ACCESS_FLAGS.in(mask)) {
            accessFlags = attr.accessFlags();
            ctl.set(ValueLayout.JAVA_INT, slot + Layout.QP_ACCESS, accessFlags);
        }
        if (QpAttrMask.PATH_MTU.in(mask)) {
            pathMtu = attr.pathMtu();
        }
        if (QpAttrMask.DEST_QPN.in(mask)) {
            destQpn = attr.destQpNum();
            ctl.set(ValueLayout.JAVA_INT, slot + Layout.QP_DEST_QPN, destQpn);
        }
        if (QpAttrMask.RQ_PSN.in(mask)) {
            rqPsn = attr.rqPsn();
        }
        if (QpAttrMask.SQ_PSN.in(mask)) {
            sqPsn = attr.sqPsn();
        }
        if (QpAttrMask.MIN_RNR_TIMER.in(mask)) {
            minRnrTimer = attr.minRnrTimer();
            ctl.set(ValueLayout.JAVA_INT, slot + Layout.QP_MIN_RNR, minRnrTimer);
        }
        if (QpAttrMask.TIMEOUT.in(mask)) {
            timeout = attr.timeout();
        }
        if (QpAttrMask.RETRY_CNT.in(mask)) {
            retryCnt = attr.retryCnt();
        }
        if (QpAttrMask.RNR_RETRY.in(mask)) {
            rnrRetry = attr.rnrRetry();
        }
        if (QpAttrMask.MAX_QP_RD_ATOMIC.in(mask)) {
            maxRdAtomic = attr.maxRdAtomic();
        }
        if (QpAttrMask.MAX_DEST_RD_ATOMIC.in(mask)) {
            maxDestRdAtomic = attr.maxDestRdAtomic();
            ctl.set(ValueLayout.JAVA_INT, slot + Layout.QP_MAX_DEST_RD, maxDestRdAtomic);
        }
        if (QpAttrMask.PKEY_INDEX.in(mask)) {
            pkeyIndex = attr.pkeyIndex();
        }
        if (QpAttrMask.PORT.in(mask)) {
            port = attr.port();
        }
        if (QpAttrMask.QKEY.in(mask)) {
            qkey = attr.qkey();
        }
        if (QpAttrMask.EN_SQD_ASYNC_NOTIFY.in(mask)) {
            enSqdNotify = attr.enSqdAsyncNotify();
        }
    }

    private void moveTo(QpState target) {
        QpState from = state;
        switch (target) {
            case RESET -> {
                publishState(QpState.RESET);
                sq.clear();
                if (rq != null) {
                    rq.discard();
                }
                node.ctl.set(ValueLayout.JAVA_INT, slot + Layout.QP_ERROR_CAUSE, 0);
                accessFlags = 0;
                node.ctl.set(ValueLayout.JAVA_INT, slot + Layout.QP_ACCESS, 0);
                ah = null;
                peer = null;
                destQpn = 0;
                pkeyIndex = 0;
                port = 0;
                requester.forget();
            }
            case ERR -> toError(null);
            case SQD -> {
                publishState(QpState.SQD);
                if (enSqdNotify && sq.isEmpty()) {
                    pd.context.postAsync(AsyncEventType.SQ_DRAINED, this, null, null);
                }
            }
            default -> {
                publishState(target);
                if (target == QpState.RTS && from != QpState.RTS) {
                    requester.drain(System.nanoTime());
                }
            }
        }
    }

    /**
     * RC's error state: the WR that failed (already completed with its status by the caller,
     * or null) is gone from the queue; every other outstanding WR completes WR_FLUSH_ERR, then
     * every posted receive. A QP on an SRQ leaves the SRQ's receives there and gets
     * LAST_WQE_REACHED, as IBA says.
     */
    void toError(AsyncEventType event) {
        boolean was = state == QpState.ERR;
        publishState(QpState.ERR);
        requester.flush();
        if (rq != null) {
            rq.flush(this);
        }
        if (!was) {
            if (event != null) {
                pd.context.postAsync(event, this, null, null);
            }
            if (srq != null) {
                pd.context.postAsync(AsyncEventType.QP_LAST_WQE_REACHED, this, null, srq);
            }
        }
    }

    /**
     * A peer's request may have moved this QP to ERR in the shared slot (a remote access or
     * invalid request error): make it true here — flush, and raise the event it recorded.
     */
    void noticeRemoteError() {
        if (state == QpState.ERR || state == QpState.RESET || closed) {
            return;
        }
        if (sharedState() != QpState.ERR) {
            return;
        }
        int cause = node.ctl.get(ValueLayout.JAVA_INT, slot + Layout.QP_ERROR_CAUSE) - 1;
        AsyncEventType event = null;
        for (AsyncEventType t : AsyncEventType.values()) {
            if (t.value() == cause) {
                event = t;
            }
        }
        toError(event);
    }

    @Override
    public synchronized QpAttr query() {
        checkOpen("query_qp");
        noticeRemoteError();
        QpAttr a = new QpAttr()
                .state(state)
                .curState(state)
                .pathMtu(pathMtu)
                .rqPsn(rqPsn)
                .sqPsn(sqPsn)
                .destQpNum(destQpn)
                .accessFlags(accessFlags)
                .cap(cap)
                .pkeyIndex(pkeyIndex)
                .port(port)
                .maxRdAtomic(maxRdAtomic)
                .maxDestRdAtomic(maxDestRdAtomic)
                .minRnrTimer(minRnrTimer)
                .timeout(timeout)
                .retryCnt(retryCnt)
                .rnrRetry(rnrRetry)
                .qkey(qkey)
                .enSqdAsyncNotify(enSqdNotify);
        if (ah != null) {
            a.ahAttr(ah.copy());
        }
        return a;
    }

    @Override
    public void postRecv(RecvWorkRequest head) {
        synchronized (this) {
            if (closed) {
                throw PostException.of(new VerbsException(Errno.EINVAL, "post_recv: the QP was destroyed"), head, 0);
            }
            if (rq == null) {
                throw PostException.of(new VerbsException(Errno.EINVAL, "post_recv: QP 0x" + Integer.toHexString(qpn)
                        + " takes its receives from an SRQ; post them there"), head, 0);
            }
            if (!state.canPostRecv()) {
                throw PostException.of(new VerbsException(Errno.EINVAL, "post_recv: QP 0x" + Integer.toHexString(qpn)
                        + " is in RESET; move it to INIT first"), head, 0);
            }
            noticeRemoteError();
            try {
                rq.postList(head, "post_recv");
            } finally {
                if (state == QpState.ERR) {
                    rq.flush(this); // IBA: receives posted in ERR complete with WR_FLUSH_ERR
                }
            }
        }
    }

    @Override
    public void postSend(SendWorkRequest head) {
        synchronized (this) {
            if (closed) {
                throw PostException.of(new VerbsException(Errno.EINVAL, "post_send: the QP was destroyed"), head, 0);
            }
            if (head.next != null && PostLists.length(head) < 0) {
                throw PostException.cyclic("post_send", head);
            }
            noticeRemoteError();
            int n = 0;
            try {
                for (SendWorkRequest wr = head; wr != null; wr = wr.next) {
                    post(wr);
                    n++;
                }
            } catch (VerbsException e) {
                kick();
                throw PostException.of(e, PostLists.at(head, n), n);
            }
            kick();
        }
    }

    private void kick() {
        if (state == QpState.ERR) {
            requester.flush();
        } else if (state == QpState.RTS) {
            requester.drain(Requester.NOW_UNREAD); // the clock is read only if a WR has to wait
        }
    }

    private void post(SendWorkRequest wr) {
        if (!state.canPostSend()) {
            throw new VerbsException(Errno.EINVAL, "post_send: QP 0x" + Integer.toHexString(qpn) + " is in " + state
                    + "; sends need RTS (or SQD/ERR)");
        }
        if (sq.isFull()) {
            throw new VerbsException(Errno.ENOMEM, "post_send: the send queue is full (" + sq.capacity() + " WRs outstanding)");
        }
        checkOpcode(wr);
        SgList sgl = wr.sgList;
        if (sgl.count() > cap.maxSendSge()) {
            throw new VerbsException(Errno.EINVAL, "post_send: " + sgl.count() + " SGEs but max_send_sge is " + cap.maxSendSge());
        }
        long total = sgl.totalLength();
        if (total > Limits.MAX_MSG) {
            throw new VerbsException(Errno.EINVAL, "post_send: message of " + total + " bytes exceeds max_msg_sz " + Limits.MAX_MSG);
        }
        boolean inline = (wr.sendFlags & SendFlags.INLINE) != 0;
        if (inline && total > cap.maxInlineData()) {
            throw new VerbsException(Errno.EINVAL, "post_send: " + total + " inline bytes exceed max_inline_data " + cap.maxInlineData());
        }
        SendWqe w = sq.next();
        w.reset();
        w.wrId = wr.wrId;
        w.opcode = wr.opcode;
        w.signaled = sqSigAll || (wr.sendFlags & SendFlags.SIGNALED) != 0;
        w.solicited = (wr.sendFlags & SendFlags.SOLICITED) != 0;
        w.immData = wr.immData;
        w.remoteAddr = wr.remoteAddr;
        w.rkey = wr.rkey;
        w.compareAdd = wr.compareAdd;
        w.swap = wr.swap;
        w.total = total;
        w.rnrLeft = rnrRetry;
        w.retryLeft = retryCnt;
        boolean written = wr.opcode == WrOpcode.RDMA_READ || wr.opcode == WrOpcode.ATOMIC_CMP_AND_SWP
                || wr.opcode == WrOpcode.ATOMIC_FETCH_AND_ADD;
        if (!resolveLocal(w, sgl, written ? AccessFlags.LOCAL_WRITE : 0, inline)) {
            w.postError = WcStatus.LOC_PROT_ERR;
        } else if (inline) {
            long at = 0;
            for (int i = 0; i < w.sgeCount; i++) {
                MemorySegment.copy(w.segment[i], w.offset[i], w.inline, at, w.length[i]);
                at += w.length[i];
            }
            w.sgeCount = total == 0 ? 0 : 1;
            w.segment[0] = w.inline;
            w.offset[0] = 0;
            w.length[0] = total;
        }
        sq.push();
    }

    /** Resolves the SGEs against this node's MRs in this PD (inline data may name memory by address alone). */
    private boolean resolveLocal(SendWqe w, SgList sgl, int needed, boolean inline) {
        int n = 0;
        for (int i = 0; i < sgl.count(); i++) {
            Sge sge = sgl.get(i);
            long len = Integer.toUnsignedLong(sge.length);
            if (len == 0) {
                continue;
            }
            ShmMr mr = node.mrs[PeerNode.mrIndex(sge.lkey)];
            if (mr == null || mr.key != sge.lkey || !mr.covers(sge.addr, len, needed, pd.id)) {
                mr = inline ? byAddress(sge.addr, len) : null;
                if (mr == null) {
                    return false;
                }
            }
            w.segment[n] = mr.segment;
            w.offset[n] = sge.addr - mr.segment.address();
            w.length[n] = len;
            n++;
        }
        w.sgeCount = n;
        return true;
    }

    private ShmMr byAddress(long addr, long len) {
        for (ShmMr mr : node.mrs) {
            if (mr != null && mr.covers(addr, len, 0, pd.id)) {
                return mr;
            }
        }
        return null;
    }

    private void checkOpcode(SendWorkRequest wr) {
        switch (wr.opcode) {
            case SEND, SEND_WITH_IMM, RDMA_WRITE, RDMA_WRITE_WITH_IMM -> { }
            case RDMA_READ -> {
                if ((wr.sendFlags & SendFlags.INLINE) != 0) {
                    throw new VerbsException(Errno.EINVAL, "post_send: RDMA_READ cannot be inline");
                }
                requireInitiatorDepth(wr);
            }
            case ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD -> {
                if (wr.sgList.count() != 1 || wr.sgList.get(0).length != 8) {
                    throw new VerbsException(Errno.EINVAL, "post_send: " + wr.opcode + " needs one 8-byte SGE for the original value");
                }
                requireInitiatorDepth(wr);
            }
            default -> throw new VerbsException(Errno.EOPNOTSUPP, "post_send: opcode " + wr.opcode
                    + " is not supported by the shm provider (SEND, SEND_WITH_IMM, RDMA_WRITE, RDMA_WRITE_WITH_IMM,"
                    + " RDMA_READ, ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD)");
        }
    }

    private void requireInitiatorDepth(SendWorkRequest wr) {
        if (maxRdAtomic == 0) {
            throw new VerbsException(Errno.EINVAL, "post_send: " + wr.opcode + " on a QP with max_rd_atomic 0 could never start");
        }
    }

    /** The progress thread's turn: retry a stalled head, notice errors peers caused, and lost peers. */
    synchronized long progress(long now, boolean checkPeer) {
        if (closed) {
            return Long.MAX_VALUE;
        }
        noticeRemoteError();
        if (checkPeer && peer != null && !peer.isSelf && (state == QpState.RTS || state == QpState.RTR || state == QpState.SQD)
                && peer.isGone()) {
            requester.peerLost();
            return Long.MAX_VALUE;
        }
        if (state == QpState.RTS) {
            return requester.drain(now);
        }
        return Long.MAX_VALUE;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            INT.setRelease(node.ctl, slot + Layout.QP_QPN, 0);
            publishState(QpState.RESET);
            sq.clear();
        }
        node.qps[index] = null;
        if (rq != null) {
            node.heap.release(rq.ring.base(), rqBytes);
        }
        node.freeQp(index);
        sendCq.detachQp();
        recvCq.detachQp();
        if (srq != null) {
            srq.detach();
        }
        arena.close();
        pd.forget(this);
    }

    private void checkOpen(String op) {
        if (closed) {
            throw new VerbsException(Errno.EINVAL, op + ": the QP was destroyed");
        }
    }

    /** Completes into this QP's send CQ (an error or a signaled success). */
    void completeSend(SendWqe w, WcStatus status) {
        WcOpcode op = w.opcode.completionOpcode();
        int len = w.opcode == WrOpcode.RDMA_READ || w.opcode == WrOpcode.ATOMIC_CMP_AND_SWP
                || w.opcode == WrOpcode.ATOMIC_FETCH_AND_ADD || w.opcode == WrOpcode.SEND
                || w.opcode == WrOpcode.SEND_WITH_IMM || w.opcode == WrOpcode.RDMA_WRITE
                || w.opcode == WrOpcode.RDMA_WRITE_WITH_IMM ? (int) w.total : 0;
        // rxe's send completions carry WITH_IMM for the immediate opcodes (the testkit holds it).
        // A full CQ is flagged in its slot and the progress thread raises CQ_ERR; the QP that
        // overran it goes to ERR (IBA: a CQ overrun), once the requester is out of its step.
        int flags = status == WcStatus.SUCCESS && w.opcode.hasImmediate() ? org.jrdma.verbs.WcFlags.WITH_IMM : 0;
        if (!node.self.complete(sendCq.index, w.wrId, status.value(), op.value(), len, 0, qpn, 0, flags, false)
                && state != QpState.ERR) {
            sendCqOverran = true;
        }
    }

    /** Whether a completion found the send CQ full since the last look (then the QP goes to ERR). */
    boolean takeSendCqOverrun() {
        boolean o = sendCqOverran;
        sendCqOverran = false;
        return o;
    }

    @Override
    public String toString() {
        return "ShmQp{qpn=0x" + Integer.toHexString(qpn) + ", " + state + "}";
    }
}
