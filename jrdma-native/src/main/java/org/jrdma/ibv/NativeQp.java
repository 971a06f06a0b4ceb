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
import org.jrdma.verbs.PostException;
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
import org.jrdma.verbs.spi.PostLists;
import org.jrdma.verbs.spi.QpTransitions;

/**
 * {@code struct ibv_qp *}. modify_qp is checked against {@link QpTransitions} first, so a refused
 * call modifies nothing, as with the soft provider. post_send and post_recv go through the ops
 * table from a preallocated native post list per queue (grown to the longest list posted, at most
 * the queue's depth), one call per list, under that queue's lock.
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
        this.send = WorkRequests.forSend(arena, Math.max(1, cap.maxSendSge()), Math.max(1, cap.maxSendWr()));
        this.recv = WorkRequests.forRecv(arena, Math.max(1, cap.maxRecvSge()), Math.max(1, cap.maxRecvWr()));
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

    /**
     * Whether it was destroyed (close, or its context's close): native code that names it must forget it.
     *
     * @return true once destroyed
     */
    public boolean isClosed() {
        return closed;
    }

    /**
     * The struct ibv_qp * (for native code such as librdmacm).
     *
     * @return the {@code struct ibv_qp *}
     */
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
                if (target != current) {
                    org.jrdma.verbs.jfr.QpStateChangeEvent.emit(pd.context.device().name(), qpNum, current, target, null);
                }
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

    /** ibv_post_recv of {@code wr} and its {@code next} chain: one ops.post_recv call (see {@link WorkRequests#postRecvs}). */
    @Override
    public void postRecv(RecvWorkRequest wr) {
        synchronized (recvLock) {
            if (closed) {
                throw PostException.of(new VerbsException(Errno.EINVAL, "ibv_post_recv: the QP was closed"), wr, 0);
            }
            if (srq != null) {
                throw PostException.of(new VerbsException(Errno.EINVAL, "ibv_post_recv: the QP receives from its SRQ; post"
                        + " there"), wr, 0);
            }
            recv.postRecvs(pd.context.ops.postRecv, qp, wr, "ibv_post_recv", "the queue was granted", "max_recv_wr");
        }
    }

    /**
     * ibv_post_send of {@code head} and its {@code next} chain: each WR checked and marshalled into
     * the preallocated native list, linked through {@code next}, then one ops.post_send call; the
     * bad_wr it returns is mapped back to the Java WR. A WR refused here (before the call) ends the
     * list there: the ones before it are posted. A list longer than the granted max_send_wr fails
     * with ENOMEM at the WR past it.
     */
    @Override
    public void postSend(SendWorkRequest head) {
        synchronized (sendLock) {
            if (closed) {
                throw PostException.of(new VerbsException(Errno.EINVAL, "ibv_post_send: the QP was closed"), head, 0);
            }
            int length = head.next == null ? 1 : PostLists.length(head);
            if (length < 0) {
                throw PostException.cyclic("ibv_post_send", head);
            }
            int n = Math.min(length, send.maxWrs());
            send.ensureRoom(n);
            if (needsContextLock(head, n)) {
                // The objects these point to may be closed by another thread: check and post under the
                // context's lock, which their close takes too.
                synchronized (pd.context) {
                    postList(head, n, length);
                }
            } else {
                postList(head, n, length);
            }
        }
    }

    /** Inline data, BIND_MW and UD address handles point to objects another thread may close. */
    private boolean needsContextLock(SendWorkRequest head, int n) {
        SendWorkRequest wr = head;
        for (int i = 0; i < n; i++, wr = wr.next) {
            if ((wr.sendFlags & SendFlags.INLINE) != 0 || wr.opcode == org.jrdma.verbs.WrOpcode.BIND_MW || type == QpType.UD) {
                return true;
            }
        }
        return false;
    }

    private void postList(SendWorkRequest head, int n, int length) {
        binds = 0;
        VerbsException refused = null;
        int filled = 0;
        SendWorkRequest wr = head;
        for (; filled < n; filled++, wr = wr.next) {
            try {
                fill(filled, wr);
            } catch (VerbsException e) {
                refused = e;
                break;
            }
        }
        if (refused == null && filled < length) {
            refused = send.tooLong("ibv_post_send", length, "max_send_wr");
        }
        if (filled > 0) {
            int rc = send.post(pd.context.ops.postSend, qp, filled);
            if (rc != 0) {
                int bad = send.badIndex(filled);
                bound(bad);
                SendWorkRequest badWr = PostLists.at(head, bad);
                throw PostException.of(Native.failure("ibv_post_send " + badWr.opcode, rc < 0 ? -rc : rc), badWr, bad);
            }
            bound(filled);
        }
        if (refused != null) {
            throw PostException.of(refused, wr, filled);
        }
    }

    /** Checks WR {@code index} of a list and marshals it there. */
    private void fill(int index, SendWorkRequest wr) {
        checkSges("ibv_post_send", wr.sgList, send.maxSge());
        switch (wr.opcode) {
            case TSO, FLUSH, ATOMIC_WRITE -> throw new VerbsException(Errno.EOPNOTSUPP,
                    "ibv_post_send: opcode " + wr.opcode + " is not supported by jrdma-native");
            default -> { }
        }
        boolean inline = (wr.sendFlags & SendFlags.INLINE) != 0;
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
            int rkey = nextRkey(mw);
            send.select(index);
            send.fillSend(wr, ah, mw.handle(), rkey, mr.handle());
            pendBind(index, mw, rkey, mr);
            return;
        }
        send.select(index);
        send.fillSend(wr, ah, MemorySegment.NULL, 0, MemorySegment.NULL);
    }

    // BIND_MWs of the list being posted: applied to their windows once the post took them.
    private NativeMw[] bindMw = new NativeMw[1];
    private NativeMr[] bindMr = new NativeMr[1];
    private int[] bindRkey = new int[1];
    private int[] bindAt = new int[1];
    private int binds;

    /** The window's next rkey, after any bind of it earlier in the list. */
    private int nextRkey(NativeMw mw) {
        for (int i = binds - 1; i >= 0; i--) {
            if (bindMw[i] == mw) {
                return (bindRkey[i] & 0xFFFFFF00) | ((bindRkey[i] + 1) & 0xFF);
            }
        }
        return mw.nextRkey();
    }

    private void pendBind(int index, NativeMw mw, int rkey, NativeMr mr) {
        if (binds == bindMw.length) {
            int n = binds * 2;
            bindMw = java.util.Arrays.copyOf(bindMw, n);
            bindMr = java.util.Arrays.copyOf(bindMr, n);
            bindRkey = java.util.Arrays.copyOf(bindRkey, n);
            bindAt = java.util.Arrays.copyOf(bindAt, n);
        }
        bindMw[binds] = mw;
        bindMr[binds] = mr;
        bindRkey[binds] = rkey;
        bindAt[binds] = index;
        binds++;
    }

    /** Records the binds of the list's first {@code posted} WRs (the library took those). */
    private void bound(int posted) {
        for (int i = 0; i < binds; i++) {
            if (bindAt[i] < posted) {
                IbvCalls.setMwRkey(bindMw[i].handle(), bindRkey[i]);
                bindMw[i].bound(bindRkey[i], bindMr[i]);
            }
            bindMw[i] = null;
            bindMr[i] = null;
        }
        binds = 0;
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
