package org.jrdma.ibv;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.jrdma.ibv.ffi.IbvCalls;
import org.jrdma.ibv.ffi.Native;
import org.jrdma.ibv.ffi.QpStructs;
import org.jrdma.ibv.ffi.WorkRequests;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.MemoryWindow;
import org.jrdma.verbs.MwBind;
import org.jrdma.verbs.MwType;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.SgList;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.spi.QpTransitions;

/**
 * {@code struct ibv_qp *}. modify_qp is checked against {@link QpTransitions} first, so a refused
 * call modifies nothing, as with the soft provider. post_send and post_recv go through the ops
 * table from one preallocated native WR per queue, under that queue's lock.
 *
 * <p>Everything handed to native code is checked first: SGE counts against the preallocated room,
 * and the objects a WR points to (AH, MW, MR) must be live. With IBV_SEND_INLINE the provider
 * library itself copies from the SGE addresses, so each inline SGE must lie inside a live region
 * of this context (its lkey is not used); the others are checked by the device against their lkey.
 */
public final class NativeQp implements QueuePair {
    private final NativePd pd;
    private final MemorySegment qp;
    private final int qpNum;
    private final QpType type;
    private final NativeCq sendCq;
    private final NativeCq recvCq;
    private final NativeSrq srq;
    private final QpCap cap;
    private final Arena arena = Arena.ofShared();
    private final WorkRequests send;
    private final WorkRequests recv;
    private final Object sendLock = new Object();
    private final Object recvLock = new Object();
    private volatile boolean closed;

    private NativeQp(NativePd pd, QpStructs.Created c, QpType type, NativeCq sendCq, NativeCq recvCq, NativeSrq srq) {
        this.pd = pd;
        this.qp = c.qp();
        this.qpNum = c.qpNum();
        this.type = type;
        this.sendCq = sendCq;
        this.recvCq = recvCq;
        this.srq = srq;
        this.cap = c.cap();
        this.send = WorkRequests.forSend(arena, Math.max(1, cap.maxSendSge()));
        this.recv = WorkRequests.forRecv(arena, Math.max(1, cap.maxRecvSge()));
    }

    static NativeQp create(NativePd pd, QpInitAttr init) {
        NativeCq scq = cq(pd, init.sendCq(), "send");
        NativeCq rcq = cq(pd, init.recvCq(), "recv");
        NativeSrq srq = null;
        if (init.srq() != null) {
            if (!(init.srq() instanceof NativeSrq s) || s.pd().context != pd.context || s.isClosed()) {
                throw new VerbsException(Errno.EINVAL, "ibv_create_qp: the SRQ is not a live SRQ of this context");
            }
            srq = s;
        }
        QpType type = init.qpType();
        if (type != QpType.RC && type != QpType.UC && type != QpType.UD) {
            throw new VerbsException(Errno.EOPNOTSUPP, "ibv_create_qp: QP type " + type + " (RC, UC and UD are supported)");
        }
        QpCap cap = init.cap();
        if (srq != null) {
            cap = new QpCap(cap.maxSendWr(), 0, cap.maxSendSge(), 0, cap.maxInlineData());
        }
        QpStructs.Created c;
        synchronized (pd) {
            pd.ensureOpen("ibv_create_qp");
            c = QpStructs.createQp(pd.pd, scq.handle(), rcq.handle(), srq == null ? MemorySegment.NULL : srq.handle(),
                    type, cap, init.sqSigAll());
        }
        NativeQp q = new NativeQp(pd, c, type, scq, rcq, srq);
        pd.context.qps.add(c.qp(), q);
        return q;
    }

    /**
     * Wraps a QP that native code created on this PD (librdmacm's rdma_create_qp): {@code init}
     * names the CQs and SRQ it was created with and its type; the granted capabilities are read
     * back with ibv_query_qp. The wrapper owns it from then on (close destroys it).
     */
    static NativeQp adopt(NativePd pd, MemorySegment qp, QpInitAttr init) {
        NativeCq scq = cq(pd, init.sendCq(), "send");
        NativeCq rcq = cq(pd, init.recvCq(), "recv");
        NativeSrq srq = init.srq() instanceof NativeSrq s ? s : null;
        QpCap cap = QpStructs.queryQp(qp).cap();
        NativeQp q = new NativeQp(pd, new QpStructs.Created(qp, QpStructs.qpNum(qp), cap), init.qpType(), scq, rcq, srq);
        pd.context.qps.add(qp, q);
        return q;
    }

    private static NativeCq cq(NativePd pd, CompletionQueue cq, String which) {
        if (!(cq instanceof NativeCq c) || c.context() != pd.context) {
            throw new VerbsException(Errno.EINVAL, "ibv_create_qp: the " + which + " CQ is "
                    + (cq == null ? "missing" : "not one of this context's"));
        }
        return c;
    }

    /** Whether it was destroyed (close, or its context's close): native code that names it must forget it. */
    public boolean isClosed() {
        return closed;
    }

    /** The struct ibv_qp * (for native code such as librdmacm). */
    public MemorySegment handle() {
        return qp;
    }

    private void ensureOpen(String verb) {
        if (closed) {
            throw new VerbsException(Errno.EINVAL, verb + ": the QP was closed");
        }
    }

    @Override
    public int qpNum() {
        return qpNum;
    }

    @Override
    public QpType qpType() {
        return type;
    }

    @Override
    public QpState state() {
        return query().qpState();
    }

    @Override
    public NativePd pd() {
        return pd;
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

    @Override
    public void modify(QpAttr attr, int attrMask) {
        synchronized (sendLock) {
            synchronized (recvLock) {
                ensureOpen("ibv_modify_qp");
                QpState current = QpStructs.queryQp(qp).qpState();
                QpState target = QpTransitions.check(type, current, attr, attrMask);
                QpStructs.modifyQp(qp, attr, attrMask, "modify_qp " + current + "→" + target);
            }
        }
    }

    @Override
    public QpAttr query() {
        synchronized (recvLock) {
            ensureOpen("ibv_query_qp");
            return QpStructs.queryQp(qp);
        }
    }

    @Override
    public void postRecv(RecvWorkRequest wr) {
        synchronized (recvLock) {
            ensureOpen("ibv_post_recv");
            if (srq != null) {
                throw new VerbsException(Errno.EINVAL, "ibv_post_recv: the QP receives from its SRQ; post there");
            }
            checkSges("ibv_post_recv", wr.sgList, recv.maxSge());
            recv.fillRecv(wr);
            int rc = recv.post(pd.context.ops.postRecv, qp);
            if (rc != 0) {
                throw Native.failure("ibv_post_recv", rc < 0 ? -rc : rc);
            }
        }
    }

    @Override
    public void postSend(SendWorkRequest wr) {
        synchronized (sendLock) {
            ensureOpen("ibv_post_send");
            checkSges("ibv_post_send", wr.sgList, send.maxSge());
            switch (wr.opcode) {
                case TSO, FLUSH, ATOMIC_WRITE -> throw new VerbsException(Errno.EOPNOTSUPP,
                        "ibv_post_send: opcode " + wr.opcode + " is not supported by jrdma-native");
                default -> { }
            }
            boolean inline = (wr.sendFlags & SendFlags.INLINE) != 0;
            if (inline || wr.opcode == org.jrdma.verbs.WrOpcode.BIND_MW || type == QpType.UD) {
                // The objects these point to may be closed by another thread: check and post under the
                // context's lock, which their close takes too.
                synchronized (pd.context) {
                    postChecked(wr, inline);
                }
            } else {
                post(wr, MemorySegment.NULL, MemorySegment.NULL, 0, MemorySegment.NULL);
            }
        }
    }

    private void postChecked(SendWorkRequest wr, boolean inline) {
        if (inline) {
            long total = wr.sgList.totalLength();
            if (total > cap.maxInlineData()) {
                throw new VerbsException(Errno.EINVAL, "ibv_post_send: " + total + " inline bytes, the QP was granted "
                        + cap.maxInlineData());
            }
            for (int i = 0; i < wr.sgList.count(); i++) {
                Sge s = wr.sgList.get(i);
                if (!inLiveRegion(s.addr, Integer.toUnsignedLong(s.length))) {
                    throw new VerbsException(Errno.EINVAL, "ibv_post_send: inline SGE " + i + " " + s
                            + " is not inside a registered region of this context (the library reads it)");
                }
            }
        }
        MemorySegment ah = MemorySegment.NULL;
        if (type == QpType.UD) {
            if (!(wr.ah instanceof NativeAh a) || a.isClosed() || a.pd().context != pd.context) {
                throw new VerbsException(Errno.EINVAL, "ibv_post_send: a UD send needs a live address handle of this"
                        + " context");
            }
            ah = a.handle();
        }
        if (wr.opcode == org.jrdma.verbs.WrOpcode.BIND_MW) {
            NativeMw mw = liveWindow(wr.mw, "ibv_post_send BIND_MW");
            if (mw.type() != MwType.TYPE_2) {
                throw new VerbsException(Errno.EINVAL, "ibv_post_send BIND_MW: a type-1 window is bound with ibv_bind_mw");
            }
            MwBind b = wr.bind;
            if (b == null) {
                throw new VerbsException(Errno.EINVAL, "ibv_post_send BIND_MW: no bind (MwBind) given");
            }
            NativeMr mr = liveRegion(b.mr(), "ibv_post_send BIND_MW");
            int rkey = mw.nextRkey();
            post(wr, ah, mw.handle(), rkey, mr.handle());
            IbvCalls.setMwRkey(mw.handle(), rkey);
            mw.bound(rkey, mr);
            return;
        }
        post(wr, ah, MemorySegment.NULL, 0, MemorySegment.NULL);
    }

    private void post(SendWorkRequest wr, MemorySegment ah, MemorySegment mw, int bindRkey, MemorySegment mr) {
        send.fillSend(wr, ah, mw, bindRkey, mr);
        int rc = send.post(pd.context.ops.postSend, qp);
        if (rc != 0) {
            throw Native.failure("ibv_post_send " + wr.opcode, rc < 0 ? -rc : rc);
        }
    }

    private boolean inLiveRegion(long addr, long length) {
        for (NativeMr mr : pd.context.liveMrs) {
            if (mr.covers(addr, length)) {
                return true;
            }
        }
        return false;
    }

    private NativeMw liveWindow(MemoryWindow w, String verb) {
        if (!(w instanceof NativeMw mw) || mw.isClosed() || mw.pd().context != pd.context) {
            throw new VerbsException(Errno.EINVAL, verb + ": the window is not a live window of this context");
        }
        return mw;
    }

    private NativeMr liveRegion(org.jrdma.verbs.MemoryRegion r, String verb) {
        if (!(r instanceof NativeMr mr) || mr.isClosed() || mr.pd().context != pd.context) {
            throw new VerbsException(Errno.EINVAL, verb + ": the region is not a live region of this context");
        }
        return mr;
    }

    private static void checkSges(String verb, SgList list, int room) {
        if (list.count() > room) {
            throw new VerbsException(Errno.EINVAL, verb + ": " + list.count() + " SGEs, the queue was granted " + room);
        }
    }

    /** ibv_bind_mw (type 1): ops.bind_mw posts the bind on this QP; returns the new rkey. */
    @Override
    public int bindMw(MemoryWindow window, MwBind bind, long wrId, boolean signaled) {
        synchronized (sendLock) {
            ensureOpen("ibv_bind_mw");
            synchronized (pd.context) {
                NativeMw mw = liveWindow(window, "ibv_bind_mw");
                // the checks of verbs.h's static inline ibv_bind_mw
                if (mw.type() != MwType.TYPE_1) {
                    throw new VerbsException(Errno.EINVAL, "ibv_bind_mw: a type-2 window is bound with a BIND_MW work request");
                }
                if (bind.mr() == null && (bind.addr() != 0 || bind.length() != 0)) {
                    throw new VerbsException(Errno.EINVAL, "ibv_bind_mw: an address or length without a region");
                }
                NativeMr mr = bind.mr() == null ? null : liveRegion(bind.mr(), "ibv_bind_mw");
                if (mr != null && mr.pd() != mw.pd()) {
                    throw new VerbsException(Errno.EPERM, "ibv_bind_mw: the window and the region are in different PDs");
                }
                int rkey = IbvCalls.bindMw(pd.context.ops, qp, mw.handle(), wrId, signaled ? SendFlags.SIGNALED : 0,
                        mr == null ? MemorySegment.NULL : mr.handle(), bind.addr(), bind.length(), bind.accessFlags());
                mw.bound(rkey, mr);
                return rkey;
            }
        }
    }

    /** ibv_destroy_qp: outstanding work is flushed by the kernel; the QP's events are acked first. */
    @Override
    public void close() {
        synchronized (sendLock) {
            synchronized (recvLock) {
                if (closed || pd.context.isClosed()) {
                    return;
                }
                pd.context.ackAllAsync();
                int rc = QpStructs.destroyQp(qp);
                if (rc != 0) {
                    throw Native.failure("ibv_destroy_qp", rc);
                }
                forget();
            }
        }
    }

    void release() {
        synchronized (sendLock) {
            synchronized (recvLock) {
                if (!closed) {
                    pd.context.ackAllAsync();
                    QpStructs.destroyQp(qp);
                    forget();
                }
            }
        }
    }

    private void forget() {
        closed = true;
        pd.context.qps.remove(qp);
        arena.close();
    }

    @Override
    public String toString() {
        return type + " QP 0x" + Integer.toHexString(qpNum);
    }
}
