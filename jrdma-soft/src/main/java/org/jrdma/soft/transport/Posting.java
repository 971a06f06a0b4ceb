package org.jrdma.soft.transport;

import org.jrdma.soft.memory.Window;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.PostException;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.SgList;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.WrOpcode;
import org.jrdma.verbs.spi.PostLists;

/**
 * The verbs side of a QP's queues (rxe_verbs.c: rxe_post_send's validate_send_wr and
 * init_send_wqe, rxe_post_recv): what a work request must satisfy for this QP's type, state
 * and limits — EINVAL, ENOMEM or EOPNOTSUPP otherwise, as rxe answers — and how it becomes a
 * WQE on the send or receive queue. Called by user threads with the QP's monitor held; the
 * stages only ever see WQEs that passed.
 */
final class Posting {
    private Posting() {
    }

    /**
     * ibv_post_send for a list: {@code head} and the WRs its {@code next} chain leads to, each
     * checked and queued in order (the caller holds the QP's monitor once for all of them).
     * Returns how many were queued — all of them; else a {@link PostException} names the first
     * refused WR and how many before it were queued (those stay queued). A cyclic list is refused
     * before anything is queued.
     */
    static int postSendList(TransportQp qp, SendWorkRequest head) {
        if (head.next != null && PostLists.length(head) < 0) {
            throw PostException.cyclic("post_send", head);
        }
        int n = 0;
        for (SendWorkRequest wr = head; wr != null; wr = wr.next) {
            try {
                postSend(qp, wr);
            } catch (VerbsException e) {
                throw PostException.of(e, wr, n);
            }
            n++;
        }
        return n;
    }

    /** ibv_post_send for one WR. */
    static void postSend(TransportQp qp, SendWorkRequest wr) {
        if (!qp.state.canPostSend()) {
            throw new VerbsException(Errno.EINVAL, "post_send: QP 0x" + Integer.toHexString(qp.qpn) + " is in " + qp.state
                    + "; sends need RTS (or SQD/ERR)");
        }
        if (qp.sq.isFull()) {
            throw new VerbsException(Errno.ENOMEM, "post_send: the send queue is full (" + qp.sq.capacity() + " WRs outstanding)");
        }
        checkOpcode(qp, wr);
        SendWqe w = qp.sq.at(qp.sq.tail);
        SgList sgl = wr.sgList;
        if (sgl.count() > w.gather.capacity()) {
            throw new VerbsException(Errno.EINVAL, "post_send: " + sgl.count() + " SGEs but max_send_sge is " + w.gather.capacity());
        }
        long total = sgl.totalLength();
        if (total > TransportLimits.MAX_MSG_SIZE) {
            throw new VerbsException(Errno.EINVAL, "post_send: message of " + total + " bytes exceeds max_msg_sz "
                    + TransportLimits.MAX_MSG_SIZE);
        }
        boolean inline = (wr.sendFlags & SendFlags.INLINE) != 0;
        if (inline && total > qp.maxInline) {
            throw new VerbsException(Errno.EINVAL, "post_send: " + total + " inline bytes exceed max_inline_data " + qp.maxInline);
        }
        w.reset();
        w.wrId = wr.wrId;
        w.opcode = wr.opcode;
        w.sendFlags = wr.sendFlags;
        w.signaled = qp.sqSigAll || (wr.sendFlags & SendFlags.SIGNALED) != 0;
        w.solicited = (wr.sendFlags & SendFlags.SOLICITED) != 0;
        w.immData = wr.immData;
        w.remoteAddr = wr.remoteAddr;
        w.rkey = wr.rkey;
        w.compareAdd = wr.compareAdd;
        w.swap = wr.swap;
        w.invalidateRkey = wr.invalidateRkey;
        if (wr.opcode == WrOpcode.BIND_MW) {
            bindWindow(qp, w, ((Window.Handle) wr.mw).window(), wr.bind);
            // ibverbs: the caller picks the new rkey with ibv_inc_rkey; honour it when only the key
            // byte changed and it is free, else pick one the same way; either way report it back.
            int asked = wr.rkey;
            int current = ((Window.Handle) wr.mw).window().rkey();
            if (wr.bind.length() != 0 && asked != 0 && asked != current && (asked & ~0xFF) == (current & ~0xFF)
                    && qp.memory.isFreeWindowKey(asked)) {
                w.newRkey = asked;
            }
            wr.rkey = w.newRkey;
        }
        if (qp.datagram) {
            w.udDestination = (UdDestination) wr.ah;
            w.remoteQpn = wr.remoteQpn;
            // IBA: a remote Q_Key with the high bit set means "use the QP's own Q_Key". Since only
            // the GSI QP may own a controlled Q_Key (QpTransitions), no other QP can send one:
            // a user QP cannot forge a CM message with 0x80010000. The GSI QP's own is 0x80010000.
            w.remoteQkey = org.jrdma.verbs.Qkey.isControlled(wr.remoteQkey) ? qp.attr.qkey : wr.remoteQkey;
        }
        if (inline) {
            copyInline(qp, w, sgl, total);
        } else {
            // A READ's or atomic's local buffer is written by the responses: it needs LOCAL_WRITE (rxe).
            boolean written = wr.opcode == WrOpcode.RDMA_READ || wr.opcode == WrOpcode.ATOMIC_CMP_AND_SWP
                    || wr.opcode == WrOpcode.ATOMIC_FETCH_AND_ADD;
            w.postError = w.gather.resolve(sgl, qp.memory, qp.pd, written);
        }
        qp.sq.tail++;
        if (qp.state == QpState.ERR) {
            qp.flush(); // IBA: WRs posted in ERR complete with WR_FLUSH_ERR
        }
    }

    private static void bindWindow(TransportQp qp, SendWqe w, Window mw, org.jrdma.verbs.MwBind bind) {
        w.mw = mw;
        w.bind = bind;
        w.newRkey = bind.length() == 0 ? mw.rkey() : qp.memory.freeWindowKey(mw.rkey());
    }

    /** ibv_bind_mw (type 1): a BIND_MW entry on the send queue; returns the window's new rkey. */
    static int postBind(TransportQp qp, long wrId, Window mw, org.jrdma.verbs.MwBind bind, boolean signaled) {
        if (!qp.state.canPostSend()) {
            throw new VerbsException(Errno.EINVAL, "bind_mw: QP 0x" + Integer.toHexString(qp.qpn) + " is in " + qp.state + "; binds need RTS");
        }
        if (qp.sq.isFull()) {
            throw new VerbsException(Errno.ENOMEM, "bind_mw: the send queue is full (" + qp.sq.capacity() + " WRs outstanding)");
        }
        mw.checkBind(bind, org.jrdma.verbs.MwType.TYPE_1, qp.pd);
        SendWqe w = qp.sq.at(qp.sq.tail);
        w.reset();
        w.wrId = wrId;
        w.opcode = WrOpcode.BIND_MW;
        w.sendFlags = 0;
        w.signaled = signaled || qp.sqSigAll;
        bindWindow(qp, w, mw, bind);
        qp.sq.tail++;
        if (qp.state == QpState.ERR) {
            qp.flush();
        }
        return w.newRkey;
    }

    /** What the send queue takes for this QP type, and what each opcode needs (EINVAL otherwise, as rxe). */
    private static void checkOpcode(TransportQp qp, SendWorkRequest wr) {
        if (qp.datagram) {
            checkUd(qp, wr);
            return;
        }
        if (qp.type == QpType.UC && wr.opcode != WrOpcode.SEND && wr.opcode != WrOpcode.SEND_WITH_IMM
                && wr.opcode != WrOpcode.RDMA_WRITE && wr.opcode != WrOpcode.RDMA_WRITE_WITH_IMM) {
            throw new VerbsException(Errno.EINVAL, "post_send: " + wr.opcode + " is not available on a UC QP (SEND and RDMA WRITE only)");
        }
        switch (wr.opcode) {
            case SEND, SEND_WITH_IMM, RDMA_WRITE, RDMA_WRITE_WITH_IMM, LOCAL_INV -> { }
            case SEND_WITH_INV -> {
                if (qp.type != QpType.RC) {
                    throw new VerbsException(Errno.EINVAL, "post_send: SEND_WITH_INV needs an RC QP");
                }
            }
            case BIND_MW -> {
                if (!(wr.mw instanceof Window.Handle h) || wr.bind == null) {
                    throw new VerbsException(Errno.EINVAL, "post_send: BIND_MW needs a window of this device and what to bind");
                }
                h.window().checkBind(wr.bind, org.jrdma.verbs.MwType.TYPE_2, qp.pd);
            }
            case RDMA_READ -> {
                if ((wr.sendFlags & SendFlags.INLINE) != 0) {
                    throw new VerbsException(Errno.EINVAL, "post_send: RDMA_READ cannot be inline");
                }
                requireInitiatorDepth(qp, wr);
            }
            case ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD -> {
                if (wr.sgList.count() != 1 || wr.sgList.get(0).length != 8) {
                    throw new VerbsException(Errno.EINVAL, "post_send: " + wr.opcode + " needs one 8-byte SGE for the original value");
                }
                requireInitiatorDepth(qp, wr);
            }
            default -> throw new VerbsException(Errno.EOPNOTSUPP, "post_send: opcode " + wr.opcode
                    + " is not supported on an RC QP of the soft provider");
        }
    }

    private static void checkUd(TransportQp qp, SendWorkRequest wr) {
        if (wr.opcode != WrOpcode.SEND && wr.opcode != WrOpcode.SEND_WITH_IMM) {
            throw new VerbsException(Errno.EINVAL, "post_send: " + wr.opcode + " is not available on a " + qp.type + " QP (SEND only)");
        }
        if (!(wr.ah instanceof UdDestination)) {
            throw new VerbsException(Errno.EINVAL, "post_send: a UD send needs an address handle of this device (create_ah)");
        }
        if (wr.remoteQpn <= 0 || wr.remoteQpn > 0xFFFFFF) {
            throw new VerbsException(Errno.EINVAL, "post_send: UD remote QPN " + wr.remoteQpn + " outside 1..0xFFFFFF");
        }
        long total = wr.sgList.totalLength();
        if (total > qp.udMtuBytes) {
            // A datagram is one packet: larger than the MTU it cannot be sent (IBA C10-93.1.1; rxe
            // silently drops it and reports success — we refuse it at post time instead).
            throw new VerbsException(Errno.EINVAL, "post_send: UD message of " + total + " bytes exceeds the MTU " + qp.udMtuBytes);
        }
    }

    private static void requireInitiatorDepth(TransportQp qp, SendWorkRequest wr) {
        if (qp.attr.maxRdAtomic == 0) {
            throw new VerbsException(Errno.EINVAL, "post_send: " + wr.opcode + " on a QP with max_rd_atomic 0 could never start");
        }
    }

    /**
     * Inline data is copied at post time, so the caller may reuse its buffer at once, and its
     * lkey is not checked (ibv_post_send.3). Unlike C, Java cannot read an arbitrary address
     * safely, so the bytes must still lie in a registered region of the QP's PD, found by address.
     */
    private static void copyInline(TransportQp qp, SendWqe w, SgList sgl, long total) {
        w.postError = w.gather.resolve(sgl, qp.memory, qp.pd, false, true);
        if (w.postError != null) {
            return;
        }
        long base = (long) qp.sq.slot(qp.sq.tail) * qp.maxInline;
        w.gather.copyOut(0, qp.inlineBuffer, base, (int) total);
        w.gather.clear();
        w.gather.add(null, qp.inlineBuffer, base, (int) total);
    }

    /**
     * ibv_post_recv for a list ({@code head} and its {@code next} chain, as {@link #postSendList});
     * returns how many were queued.
     */
    static int postRecvList(TransportQp qp, RecvWorkRequest head) {
        if (qp.rq == null) {
            throw PostException.of(new VerbsException(Errno.EINVAL, "post_recv: QP 0x" + Integer.toHexString(qp.qpn)
                    + " takes its receives from an SRQ; post them there"), head, 0);
        }
        if (!qp.state.canPostRecv()) {
            throw PostException.of(new VerbsException(Errno.EINVAL, "post_recv: QP 0x" + Integer.toHexString(qp.qpn)
                    + " is in RESET; move it to INIT first"), head, 0);
        }
        int n;
        try {
            n = qp.rq.postList(head, qp.memory, qp.pd, "post_recv");
        } catch (PostException e) {
            if (e.posted() > 0 && qp.state == QpState.ERR) {
                qp.flush(); // the ones queued before the refused WR
            }
            throw e;
        }
        if (qp.state == QpState.ERR) {
            qp.flush();
        }
        return n;
    }

}
