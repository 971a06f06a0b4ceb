package org.jrdma.soft.transport;

import org.jrdma.soft.net.RoceEndpoint;
import org.jrdma.soft.memory.MemoryTable;
import org.jrdma.soft.memory.PdId;
import org.jrdma.soft.memory.Window;
import org.jrdma.soft.wire.Transport;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpAttrMask;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.WcFlags;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.jfr.ErrorCompletionEvent;
import org.jrdma.verbs.jfr.QpStateChangeEvent;

/**
 * The transport side of one QP, as rxe's {@code struct rxe_qp}: its attributes
 * ({@link QpAttributes}), its send queue ({@link SendQueue}) and receive queue, the receive in
 * progress, the timers, and the requester's, completer's and responder's own state
 * ({@link RequesterState}, {@link CompleterState}, {@link ResponderState}). What stays here is
 * what belongs to the QP as a whole: modify_qp and the state walk (RESET empties, ERR
 * flushes), the posting entry points ({@link Posting} checks), and completion bookkeeping
 * ({@link WorkCompletions} fills the CQE). It is over 400 lines because those entry points
 * and the query accessors SoftQp uses are each a few lines, and splitting them further would
 * only move the same fields behind more indirection; the engine's ACK policy and lock accessors
 * are here for the same reason. Every method is called with the owning
 * QP's monitor held, by user threads (post, modify) or the engine.
 */
public final class TransportQp {
    public final int qpn;
    public final QpType type;
    /** UD or GSI: datagrams, one SEND_ONLY packet each with a DETH, no PSN checks, no ACKs. */
    public final boolean datagram;
    /** The transport of the QP's packets (UD for GSI too): the error table's column. */
    final Transport transport;
    final PdId pd;
    final MemoryTable memory;
    final CompletionSink sendCq;
    final CompletionSink recvCq;
    final boolean sqSigAll;
    public final Counters<QpCounter> counters = new Counters<>(QpCounter.class);
    private final Counters<QpCounter> deviceCounters;

    // --- attributes (modify_qp) ---
    QpState state = QpState.RESET;
    final QpAttributes attr = new QpAttributes();
    AhAttr ah;
    /** The connected peer (RC/UC), of the device's family: modify_qp checks it. */
    RoceEndpoint peer;
    /** The peer's UDP source port once strict source checking pinned it, else 0 (see SourcePin). */
    int pinnedPeerPort;
    /** UD: datagrams are at most the port's MTU. */
    final int udMtuBytes;

    // --- queues ---
    final SendQueue sq;
    /** The QP's own receive queue; null when its receives come from an SRQ. */
    final RecvQueue rq;
    final ReceiveSource receives;
    /** The receive a message in progress lands in, taken from {@link #receives} when it started. */
    final RecvWqe current;
    boolean hasCurrent;
    /** Raises this QP's asynchronous events (and those of its SRQ). */
    final AsyncEvents events;
    final java.lang.foreign.MemorySegment inlineBuffer;
    final int maxInline;

    /** The stages' own variables, as rxe's qp->req, qp->comp and qp->resp. */
    final RequesterState req = new RequesterState();
    final CompleterState comp = new CompleterState();
    final ResponderState resp = new ResponderState();
    /**
     * The QP's timers (rxe qp->retrans_timer and qp->rnr_nak_timer): the local ACK timer's
     * deadline, armed by the requester when it sends and by the completer on progress, and the
     * RNR back-off's, set by the completer; clock nanos, 0 when off.
     */
    long retransmitDeadline;
    long rnrDeadline;
    /** The monitor that guards this state (the owning QP object). */
    final Object lock;
    /** The device's name, for the Flight Recorder events (set by the verbs QP once created). */
    public String device = "";
    /** The status of the last error completion, which names why {@link #fail} moved the QP to ERR. */
    private WcStatus lastError;
    /** COMM_EST is raised once, for the first packet that reaches the QP in RTR. */
    boolean communicationEstablished;

    public TransportQp(int qpn, QpType type, PdId pd, MemoryTable memory, CompletionSink sendCq,
            CompletionSink recvCq, boolean sqSigAll, int maxSendWr, int maxRecvWr, int maxSendSge, int maxRecvSge,
            int maxInline, Counters<QpCounter> deviceCounters, int udMtuBytes, ReceiveSource srq, AsyncEvents events,
            Object lock) {
        this.qpn = qpn;
        this.lock = lock;
        this.udMtuBytes = udMtuBytes;
        this.type = type;
        this.datagram = type.isDatagram();
        this.transport = datagram ? Transport.UD : type == QpType.UC ? Transport.UC : Transport.RC;
        this.pd = pd;
        this.memory = memory;
        this.sendCq = sendCq;
        this.recvCq = recvCq;
        this.sqSigAll = sqSigAll;
        this.deviceCounters = deviceCounters;
        this.sq = new SendQueue(maxSendWr, maxSendSge);
        this.rq = srq == null ? new RecvQueue(maxRecvWr, maxRecvSge) : null;
        this.receives = srq == null ? rq : srq;
        this.current = new RecvWqe(TransportLimits.MAX_SGE);
        this.events = events;
        this.maxInline = maxInline;
        this.inlineBuffer = maxInline > 0
                ? java.lang.foreign.Arena.ofAuto().allocate((long) maxInline * sq.capacity()) : null;
    }

    /** The lock the engine and the verbs object share (the QP's monitor). */
    public Object lock() {
        return lock;
    }

    /** The ACK the responder holds back, for the engine's ACK policy (call with {@link #lock} held). */
    public HeldAck heldAck() {
        return resp.heldAck;
    }

    /** The responder's MSN, which an ACK carries. */
    public int responderMsn() {
        return resp.msn;
    }

    public void count(QpCounter c) {
        counters.increment(c);
        deviceCounters.increment(c);
    }

    void count(QpCounter c, long n) {
        counters.add(c, n);
        deviceCounters.add(c, n);
    }

    public QpState state() {
        return state;
    }

    public int destQpn() {
        return attr.destQpn;
    }

    /** The connected peer, or null before RTR (and after RESET). */
    public RoceEndpoint peer() {
        return peer;
    }

    public int mtuBytes() {
        return attr.mtu.bytes();
    }

    // ------------------------------------------------------------------ attributes

    /**
     * Applies modify_qp's attributes other than the state and the path (validated already):
     * the values as one, then what some of them mean for the stages — rq_psn is the
     * responder's expected PSN, sq_psn the requester's and completer's start, retry_cnt and
     * rnr_retry refill the completer's counters, max_dest_rd_atomic sizes the responder
     * resources.
     */
    public void modify(QpAttr a, int mask) {
        attr.apply(a, mask);
        if (QpAttrMask.RQ_PSN.in(mask)) {
            resp.ePsn = a.rqPsn();
            resp.sentPsnNak = false;
        }
        if (QpAttrMask.SQ_PSN.in(mask)) {
            Requester.retryIfRequested(this); // a retry asked for the old PSNs happens first
            req.reqPsn = a.sqPsn();
            comp.compPsn = a.sqPsn();
            req.sentHighPsn = a.sqPsn();
            req.packetsSinceAckReq = 0;
        }
        if (QpAttrMask.RETRY_CNT.in(mask)) {
            comp.retryLeft = a.retryCnt();
        }
        if (QpAttrMask.RNR_RETRY.in(mask)) {
            comp.rnrRetryLeft = a.rnrRetry();
        }
        if (QpAttrMask.MAX_DEST_RD_ATOMIC.in(mask)) {
            resp.resources.resize(a.maxDestRdAtomic());
        }
    }

    public void setPath(AhAttr ah, RoceEndpoint peer) {
        this.ah = ah.copy();
        this.peer = peer;
        this.pinnedPeerPort = 0; // a new path: learn the peer's port again (SourcePin)
    }

    public int qkey() {
        return attr.qkey;
    }

    public int accessFlags() {
        return attr.accessFlags;
    }

    public Mtu mtu() {
        return attr.mtu;
    }

    public AhAttr ah() {
        return ah;
    }

    public int rqPsn() {
        return resp.ePsn;
    }

    public int sqPsn() {
        return req.needRetry ? req.retryPsn : req.reqPsn;
    }

    public int timeout() {
        return attr.timeout;
    }

    public int retryCnt() {
        return attr.retryCnt;
    }

    public int rnrRetry() {
        return attr.rnrRetry;
    }

    public int minRnrTimer() {
        return attr.minRnrTimer;
    }

    public int maxRdAtomic() {
        return attr.maxRdAtomic;
    }

    public int maxDestRdAtomic() {
        return attr.maxDestRdAtomic;
    }

    /** The earliest armed timer deadline (clock nanos), or 0 when none is armed. */
    public long nextDeadline() {
        if (retransmitDeadline == 0) {
            return rnrDeadline;
        }
        return rnrDeadline == 0 ? retransmitDeadline : Math.min(retransmitDeadline, rnrDeadline);
    }

    /** The local ACK timeout: 4.096 µs × 2^timeout; 0 means no timer (ROCEV2-FACTS §2.2). */
    long ackTimeoutNanos() {
        return attr.timeout == 0 ? 0 : 4096L << attr.timeout;
    }

    // ------------------------------------------------------------------ state changes

    /**
     * Applies a state change decided by modify_qp (already validated). RESET empties both
     * queues without completions; ERR flushes them with WR_FLUSH_ERR (ROCEV2-FACTS §3.5).
     */
    public void moveTo(QpState target) {
        QpState from = state;
        state = target;
        if (from != target) {
            QpStateChangeEvent.emit(device, qpn, from, target, null);
        }
        if (target == QpState.RESET) {
            communicationEstablished = false;
            resetQueues();
        } else if (target == QpState.ERR && from != QpState.ERR) {
            flush();
        } else if (target == QpState.RTS && from == QpState.RTR) {
            comp.retryLeft = attr.retryCnt;
            comp.rnrRetryLeft = attr.rnrRetry;
        }
    }

    private void resetQueues() {
        for (long i = sq.head; i < sq.tail; i++) {
            sq.at(i).reset();
        }
        if (rq != null) {
            rq.clear();
        }
        current.reset();
        hasCurrent = false;
        sq.head = sq.next = sq.tail = 0;
        resp.msn = 0;
        resp.heldAck.held = false;
        resp.inSend = false;
        resp.recvOffset = 0;
        resp.inWrite = false;
        resp.writeTarget = null;
        resp.writeMr = null;
        resp.resources.clear();
        req.rdAtomicOutstanding = 0;
        comp.retryStarted = false;
        req.needRetry = false;
        retransmitDeadline = 0;
        rnrDeadline = 0;
        resp.sentPsnNak = false;
        ah = null;
        peer = null;
        attr.destQpn = 0;
    }

    /**
     * Moves the QP to ERR because of a transport or local error: the WQE that failed has
     * already completed with its status; everything else is flushed in order.
     */
    void fail() {
        if (state != QpState.ERR) {
            QpStateChangeEvent.emit(device, qpn, state, QpState.ERR,
                    lastError == null ? "transport error" : "error completion " + lastError);
            state = QpState.ERR;
            flush();
        }
    }

    /** Completes every outstanding WR with WR_FLUSH_ERR, in order, exactly once; even unsignaled. */
    void flush() {
        retransmitDeadline = 0;
        rnrDeadline = 0;
        while (sq.head < sq.tail) {
            completeSend(sq.at(sq.head), WcStatus.WR_FLUSH_ERR);
        }
        sq.next = sq.head;
        if (hasCurrent) {
            completeRecv(WcStatus.WR_FLUSH_ERR, 0, false, 0, false);
        }
        if (rq != null) {
            while (rq.take(current)) {
                hasCurrent = true;
                completeRecv(WcStatus.WR_FLUSH_ERR, 0, false, 0, false);
            }
        } else {
            // The SRQ's entries belong to every QP on it: none is flushed; the application
            // learns that this QP will take no more from the last-WQE-reached event.
            events.raise(org.jrdma.verbs.AsyncEventType.QP_LAST_WQE_REACHED);
        }
        resp.inSend = false;
        resp.recvOffset = 0;
        resp.inWrite = false;
        resp.writeTarget = null;
        resp.writeMr = null;
        resp.resources.stopReply();
        req.rdAtomicOutstanding = 0;
    }

    // ------------------------------------------------------------------ posting

    /**
     * ibv_post_send for {@code wr} and its {@code next} chain (checks and WQE set-up in
     * {@link Posting}); returns how many were queued, or throws a {@link org.jrdma.verbs.PostException}
     * saying how many were.
     */
    public int postSend(SendWorkRequest wr) {
        return Posting.postSendList(this, wr);
    }

    /** Whether earlier send WRs are still outstanding (posted, not completed); under the QP's monitor. */
    public boolean sendsOutstanding() {
        return sq.head < sq.tail;
    }

    /** ibv_bind_mw (type 1): a BIND_MW entry on the send queue; returns the window's new rkey. */
    public int postBind(long wrId, Window mw, org.jrdma.verbs.MwBind bind, boolean signaled) {
        return Posting.postBind(this, wrId, mw, bind, signaled);
    }

    /** ibv_post_recv for {@code wr} and its {@code next} chain; returns how many were queued. */
    public int postRecv(RecvWorkRequest wr) {
        return Posting.postRecvList(this, wr);
    }

    /**
     * Takes the next receive for a message that starts now (or keeps the one already taken);
     * false when none is posted — an RNR condition.
     */
    boolean takeReceive() {
        if (!hasCurrent) {
            hasCurrent = receives.take(current);
        }
        return hasCurrent;
    }

    // ------------------------------------------------------------------ completions

    /** Pops the oldest send WQE with {@code status}; a CQE if signaled or failed (IBA 10.7.3.1). */
    void completeSend(SendWqe w, WcStatus status) {
        if (w.holdsRdAtomicSlot) {
            req.rdAtomicOutstanding--;
        }
        if ((w.signaled || status != WcStatus.SUCCESS) && !WorkCompletions.send(sendCq, qpn, w, status)) {
            cqOverflow();
        }
        if (status != WcStatus.SUCCESS) {
            errorCompletion(w.wrId, w.opcode.completionOpcode(), status);
        }
        w.reset();
        sq.head++;
        if (sq.next < sq.head) {
            sq.next = sq.head;
        }
    }

    /** Remembers why the QP may be failing, and tells the Flight Recorder (if recording). */
    private void errorCompletion(long wrId, WcOpcode opcode, WcStatus status) {
        if (status != WcStatus.WR_FLUSH_ERR) {
            lastError = status;
        }
        ErrorCompletionEvent e = new ErrorCompletionEvent();
        if (e.shouldCommit()) {
            e.device = device;
            e.qpn = qpn;
            e.wrId = wrId;
            e.opcode = opcode.name();
            e.status = status.name();
            e.vendorErr = 0; // the soft provider sets none, as rxe
            e.commit();
        }
    }

    /** Completes the receive in progress ({@link #current}); a receive completion is always generated. */
    void completeRecv(WcStatus status, long byteLen, boolean withImm, int immData, boolean solicited) {
        completeRecv(status, byteLen, withImm, immData, solicited, WcOpcode.RECV, attr.destQpn);
    }

    /** {@code srcQp}: the sender's QPN (RC/UC: the connected peer; UD: the DETH source QP). */
    void completeRecv(WcStatus status, long byteLen, boolean withImm, int immData, boolean solicited,
            WcOpcode opcode, int srcQp) {
        completeRecv(status, byteLen, withImm ? WcFlags.WITH_IMM : 0, immData, solicited, opcode, srcQp);
    }

    /** {@code flags}: WITH_IMM or WITH_INV ({@code immData} then holds the immediate or the invalidated rkey). */
    void completeRecv(WcStatus status, long byteLen, int flags, int immData, boolean solicited, WcOpcode opcode,
            int srcQp) {
        if (!WorkCompletions.recv(recvCq, qpn, current, status, byteLen, flags, immData, solicited, opcode, srcQp)) {
            cqOverflow();
        }
        if (status != WcStatus.SUCCESS) {
            errorCompletion(current.wrId, opcode, status);
        }
        current.reset();
        hasCurrent = false;
    }

    /** The first packet of a connection reached the QP before RTS: raise COMM_EST (once). */
    public void noteArrival() {
        if (!communicationEstablished) {
            communicationEstablished = true;
            if (state == QpState.RTR) {
                events.raise(org.jrdma.verbs.AsyncEventType.COMM_EST);
            }
        }
    }

    /**
     * A completion was lost to a full CQ: the QP cannot report its work any more, so it goes
     * to ERR with QP_FATAL (rxe does the same on CQ overflow).
     */
    private void cqOverflow() {
        count(QpCounter.CQ_OVERFLOWS);
        if (state != QpState.ERR) {
            QpStateChangeEvent.emit(device, qpn, state, QpState.ERR, "CQ overflow");
            state = QpState.ERR;
            events.raise(org.jrdma.verbs.AsyncEventType.QP_FATAL);
        }
    }

    /** Completes, in order, the finished entries at the head that need no ACK (UC/UD sends, local work). */
    void completeDone() {
        while (sq.head < sq.next && sq.at(sq.head).state == SendWqe.State.DONE) {
            completeSend(sq.at(sq.head), WcStatus.SUCCESS);
        }
    }

    /** Whether a READ reply (or a duplicate READ's replay) is still being sent. */
    public boolean readReplyInProgress() {
        return resp.resources.replying != null;
    }

    /** Outstanding send WRs (posted, not completed). */
    public int sendQueueDepth() {
        return sq.depth();
    }

    /** Posted receive WRs not yet completed (0 for a QP on an SRQ). */
    public int recvQueueDepth() {
        return (rq == null ? 0 : rq.depth()) + (hasCurrent ? 1 : 0);
    }
}
