package org.jrdma.soft.transport;

import org.jrdma.verbs.WcFlags;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;

/**
 * How a finished WQE becomes a work completion in its CQ (rxe_comp.c make_send_cqe,
 * rxe_resp.c's receive CQE): which fields a status fills, in the CQ's own preallocated slot.
 * A full CQ writes nothing and says so; what that does to the QP is the QP's business.
 */
final class WorkCompletions {
    private WorkCompletions() {
    }

    /** A send completion of {@code w} on QP {@code qpn}; false when the CQ is full. */
    static boolean send(CompletionSink cq, int qpn, SendWqe w, WcStatus status) {
        WorkCompletion wc = cq.claim();
        if (wc == null) {
            return false;
        }
        wc.wrId = w.wrId;
        wc.status = status;
        wc.opcode = w.opcode.completionOpcode();
        wc.qpNum = qpn;
        if (status == WcStatus.SUCCESS) {
            wc.byteLen = (int) w.length();
            if (w.opcode.hasImmediate()) {
                wc.wcFlags = WcFlags.WITH_IMM;
            }
        }
        cq.commit(false);
        return true;
    }

    /**
     * A receive completion of {@code w}; {@code flags} WITH_IMM or WITH_INV ({@code immData}
     * then holds the immediate or the invalidated rkey), {@code srcQp} the sender's QPN (RC/UC:
     * the connected peer; UD: the DETH's source QP). False when the CQ is full.
     */
    static boolean recv(CompletionSink cq, int qpn, RecvWqe w, WcStatus status, long byteLen, int flags, int immData,
            boolean solicited, WcOpcode opcode, int srcQp) {
        WorkCompletion wc = cq.claim();
        if (wc == null) {
            return false;
        }
        wc.wrId = w.wrId;
        wc.status = status;
        wc.opcode = opcode;
        wc.qpNum = qpn;
        if (status == WcStatus.SUCCESS) {
            wc.byteLen = (int) byteLen;
            // RoCE receives always carry a GRH (the IP header); rxe sets the flag on every one.
            wc.wcFlags = WcFlags.GRH | flags;
            wc.immData = immData;
            wc.srcQp = srcQp;
        }
        cq.commit(solicited);
        return true;
    }
}
