package org.jrdma.cm;

import org.jrdma.cm.wire.Rej;
import org.jrdma.cm.wire.RejectReason;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.VerbsException;

/**
 * What destroying an id does to its connection, as the IB CM's cm_destroy_id: a pending REQ
 * is withdrawn with a REJ (timeout), a request or reply we hold is rejected (consumer defined),
 * an established connection gets a DREQ (sent once: nobody is left to retry it), a received
 * DREQ its DREP, a UD request a SIDR_REP "reject". Under the agent's lock.
 */
final class Teardown {
    private Teardown() {
    }

    static void destroy(CmConn c, QueuePair qp, long udServiceId) {
        int consumer = RejectReason.CONSUMER_DEFINED.code();
        try {
            switch (c.state) {
                case REQ_SENT -> c.send(CmMessages.rej(c.tid, c.localCommId, 0, Rej.REJECTED_OTHER, RejectReason.TIMEOUT.code(), new byte[0]));
                case REQ_RCVD -> c.send(CmMessages.rej(c.tid, 0, c.remoteCommId, Rej.REJECTED_REQ, consumer, new byte[0]));
                case REP_SENT, REP_RCVD -> c.send(CmMessages.rej(c.tid, c.localCommId, c.remoteCommId,
                        c.state == CmState.REP_RCVD ? Rej.REJECTED_REP : Rej.REJECTED_OTHER, consumer, new byte[0]));
                case ESTABLISHED -> {
                    if (qp != null) {
                        CmQp.toError(qp);
                    }
                    if (c.remoteCommId != 0) {
                        c.send(CmMessages.dreq(c, c.agent.tid(c.localCommId)));
                    }
                }
                case DREQ_RCVD -> {
                    if (qp != null) {
                        CmQp.toError(qp);
                    }
                    c.send(CmMessages.drep(c));
                }
                case SIDR_REQ_RCVD -> c.send(CmMessages.sidrRep(c.tid, c.remoteCommId, CmMessages.SIDR_REJECT, 0, udServiceId, 0, new byte[0]));
                default -> {
                }
            }
        } catch (VerbsException | CmException e) {
            c.agent.counters().add("destroy_errors");
        }
        c.toIdle();
    }
}
