package org.jrdma.cm;

import org.jrdma.cm.wire.Dreq;
import org.jrdma.cm.wire.Drep;
import org.jrdma.verbs.QueuePair;

/**
 * Teardown (§7.9): rdma_disconnect moves the QP to ERR and sends a DREQ; the peer reports
 * DISCONNECTED and answers with a DREP when it disconnects too; both sides then wait in
 * timewait and report TIMEWAIT_EXIT. A DREQ or DREP counts only with both comm IDs right and
 * from the peer's address (SEC-17; the agent checks that), and a DREQ only for our QPN.
 * Under the agent's lock.
 */
final class Disconnect {
    private Disconnect() {
    }

    static void disconnect(CmConn c, QueuePair qp) {
        switch (c.state) {
            case ESTABLISHED -> {
                toError(qp);
                c.state = CmState.DREQ_SENT;
                c.sendWithRetry(CmMessages.dreq(c, c.agent.tid(c.localCommId)));
            }
            case DREQ_RCVD -> {
                toError(qp);
                sendDrep(c);
                c.enterTimewait();
            }
            default -> throw new CmException(CmError.INVALID_ARGUMENT, "disconnect: the id is not connected (CM state " + c.state + ")");
        }
    }

    static void onDreq(CmConn c, long tid, Dreq dreq) {
        QueuePair qp = c.id.qp();
        if (qp != null && dreq.remoteQpnEecn() != qp.qpNum()) {
            c.agent.counters().drop("wrong_qpn");
            return;
        }
        switch (c.state) {
            case ESTABLISHED, REP_SENT -> {
                c.cancelTimer();
                c.dreqTid = tid;
                c.state = CmState.DREQ_RCVD;
                c.emit(CmEventType.DISCONNECTED, 0, null, null, null);
            }
            case DREQ_SENT -> {
                // both sides disconnected at once: answer, report, and wait out timewait
                c.dreqTid = tid;
                sendDrep(c);
                c.emit(CmEventType.DISCONNECTED, 0, null, null, null);
                c.enterTimewait();
            }
            case DREQ_RCVD -> c.agent.counters().add(CmCounters.DUPLICATES);
            case TIMEWAIT -> {
                // our DREP was lost: send it again (cm_dreq_handler in TIMEWAIT)
                c.agent.counters().add(CmCounters.DUPLICATES);
                c.dreqTid = tid;
                sendDrep(c);
            }
            default -> c.agent.counters().drop("unexpected_dreq");
        }
    }

    static void onDrep(CmConn c, Drep drep) {
        switch (c.state) {
            case DREQ_SENT -> {
                c.emit(CmEventType.DISCONNECTED, 0, null, null, null);
                c.enterTimewait();
            }
            case TIMEWAIT -> c.agent.counters().add(CmCounters.DUPLICATES);
            default -> c.agent.counters().drop("unexpected_drep");
        }
    }

    private static void sendDrep(CmConn c) {
        c.lastAnswer = CmMessages.drep(c);
        c.send(c.lastAnswer);
    }

    private static void toError(QueuePair qp) {
        if (qp != null) {
            CmQp.toError(qp);
        }
    }
}
