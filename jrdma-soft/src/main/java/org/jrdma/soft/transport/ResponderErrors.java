package org.jrdma.soft.transport;

import org.jrdma.soft.wire.Aeth;
import org.jrdma.soft.wire.Psn;
import org.jrdma.verbs.QpState;

/**
 * Applies a row of {@link ErrorTable}: the one place a responder outcome becomes a counter, a
 * NAK, a receive completion, a state change and an event (rxe_resp.c maps its RESPST_ERR_*
 * states once, at the end of its state machine). Called with the QP's monitor held; allocates
 * nothing.
 */
final class ResponderErrors {
    /** Where NAKs and re-ACKs go; null for UD, whose rows send nothing. */
    private final PacketOut out;

    ResponderErrors(PacketOut out) {
        this.out = out;
    }

    /**
     * Carries out {@code outcome} for a request at {@code psn} (for a READ reply in progress, the
     * PSN of the response that could not be sent). A {@link ErrorTable.Response#REPLAY} is left
     * to the caller, which holds the responder resources.
     */
    void apply(TransportQp qp, ResponderOutcome outcome, int psn) {
        ErrorTable.Row row = ErrorTable.row(outcome, qp.transport);
        if (row.counter() != null) {
            qp.count(row.counter());
        }
        if (row.dropsMessage()) {
            dropMessage(qp);
        }
        switch (row.response()) {
            case NONE, REPLAY -> { }
            case ACK -> out.sendAck(qp, Aeth.ACK_SYNDROME, Psn.add(qp.resp.ePsn, -1), qp.resp.msn);
            case NAK_PSN_SEQUENCE_ERROR -> {
                // One NAK per gap: silence until an in-order packet clears sentPsnNak (rxe).
                if (!qp.resp.sentPsnNak) {
                    qp.resp.sentPsnNak = true;
                    qp.count(QpCounter.SEQ_NAKS_SENT);
                    out.sendAck(qp, Aeth.NAK_PSN_SEQUENCE_ERROR, qp.resp.ePsn, qp.resp.msn);
                }
            }
            case RNR_NAK -> out.sendAck(qp, Aeth.rnrNakSyndrome(qp.attr.minRnrTimer), psn, qp.resp.msn);
            default -> out.sendAck(qp, row.response().syndrome, psn, qp.resp.msn);
        }
        if (row.recvStatus() != null && qp.hasCurrent) {
            qp.completeRecv(row.recvStatus(), 0, false, 0, false);
        }
        if (row.nextState() == QpState.ERR) {
            qp.fail();
        }
        if (row.event() != null) {
            qp.events.raise(row.event());
        }
    }

    /** UC: forget the message in progress (its receive stays posted and is reused). */
    static void abandonMessage(TransportQp qp) {
        qp.resp.ucDropping = false;
        qp.resp.inSend = false;
        qp.resp.inWrite = false;
        qp.resp.writeTarget = null;
        qp.resp.writeMr = null;
        qp.resp.recvOffset = 0;
    }

    /** UC: drop this packet and the rest of its message, until the next FIRST/ONLY (§2.6). */
    private static void dropMessage(TransportQp qp) {
        abandonMessage(qp);
        qp.resp.ucDropping = true;
        qp.count(QpCounter.UC_MESSAGES_DROPPED);
    }
}
