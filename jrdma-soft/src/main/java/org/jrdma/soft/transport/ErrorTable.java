package org.jrdma.soft.transport;

import static org.jrdma.soft.transport.ResponderOutcome.*;

import java.util.EnumMap;
import java.util.Map;
import org.jrdma.soft.wire.Aeth;
import org.jrdma.soft.wire.Transport;
import org.jrdma.verbs.AsyncEventType;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.WcStatus;

/**
 * The responder's one table (IBA 9.9.3 and 10.8's error classes, the error table of
 * RELIABILITY-SECURITY §2.2): per {@link ResponderOutcome} and transport, what the responder
 * sends back, which counter counts it, whether a UC message is dropped, how the receive in
 * progress completes, the asynchronous event and the QP's next state. {@link ResponderErrors}
 * applies a row; nothing else decides these.
 *
 * <p>The rows are what the provider did before the table existed. Where that differs from the
 * spec it is kept and said here:
 * <ul>
 *   <li>UC {@link ResponderOutcome#MALFORMED_WQE} sends an ACKNOWLEDGE with NAK 0x63 and fails
 *       the QP, as RC does; UC has no ACKs (IBA 9.7.5.1) and a bad message there is otherwise
 *       dropped with the QP carrying on.</li>
 *   <li>{@link ResponderOutcome#REPLY_RKEY_VIOLATION} raises no event, where a responder-detected
 *       access violation would raise QP_ACCESS_ERR (as {@link ResponderOutcome#RKEY_VIOLATION}
 *       does).</li>
 *   <li>UD {@link ResponderOutcome#RECV_TOO_SHORT} completes the receive with LOC_LEN_ERR (IBA for
 *       UD); rxe drops the datagram without a word.</li>
 *   <li>{@link ResponderOutcome#INVALIDATE_RKEY} (class J) also NAKs invalid request and raises
 *       QP_REQ_ERR; the catalogue lists only the responder's completion and state.</li>
 * </ul>
 * Rows that cannot happen — UC has no duplicates, READs, atomics or SEND_WITH_INV; UD has no
 * PSN, opcode sequence or remote memory — are absent, and asking for one is a bug.
 */
public final class ErrorTable {
    /** What the responder sends back for an outcome. */
    public enum Response {
        /** Nothing: the packet is dropped. */
        NONE(-1),
        /** C9-105: re-ACK the last executed PSN (ePSN - 1), do not execute again. */
        ACK(Aeth.ACK_SYNDROME),
        /** Answer from the responder resources (READ replay, saved atomic value), by ReadAtomicResponder. */
        REPLAY(-1),
        /** NAK PSN sequence error carrying ePSN, once per gap (rxe sent_psn_nak). */
        NAK_PSN_SEQUENCE_ERROR(Aeth.NAK_PSN_SEQUENCE_ERROR),
        /** RNR NAK with the QP's min_rnr_timer in its low five bits, for the packet's PSN. */
        RNR_NAK(Aeth.TYPE_RNR_NAK),
        /** NAK invalid request (0x61) for the packet's PSN. */
        NAK_INVALID_REQUEST(Aeth.NAK_INVALID_REQUEST),
        /** NAK remote access error (0x62) for the packet's PSN. */
        NAK_REMOTE_ACCESS_ERROR(Aeth.NAK_REMOTE_ACCESS_ERROR),
        /** NAK remote operational error (0x63) for the packet's PSN. */
        NAK_REMOTE_OPERATIONAL_ERROR(Aeth.NAK_REMOTE_OPERATIONAL_ERROR);

        /** The AETH syndrome (RNR: without its timer), -1 when no ACKNOWLEDGE is sent. */
        public final int syndrome;

        Response(int syndrome) {
            this.syndrome = syndrome;
        }
    }

    /**
     * One outcome on one transport.
     *
     * @param response     what goes back to the requester
     * @param counter      the QP (and device) counter that counts it, or null
     * @param dropsMessage UC: the rest of the message is dropped up to the next FIRST/ONLY
     * @param recvStatus   the status the receive in progress (if any) completes with, or null
     *                     to leave it (flushed with WR_FLUSH_ERR when the QP fails, kept for
     *                     the next message otherwise)
     * @param event        the asynchronous event raised, or null
     * @param nextState    ERR, or null when the QP stays where it is
     */
    public record Row(Response response, QpCounter counter, boolean dropsMessage, WcStatus recvStatus,
            AsyncEventType event, QpState nextState) {
    }

    private static final Transport[] COLUMNS = {Transport.RC, Transport.UC, Transport.UD};
    private static final Row[] ROWS = new Row[ResponderOutcome.values().length * COLUMNS.length];

    /** Class C (IBA 9.9.3.1.3): NAK invalid request, the receive fails with {@code recv}, QP_REQ_ERR, ERR. */
    private static Row invalidRequest(WcStatus recv) {
        return new Row(Response.NAK_INVALID_REQUEST, null, false, recv, AsyncEventType.QP_REQ_ERR, QpState.ERR);
    }

    /** UC: the message is dropped and the QP carries on (no ACKs to say why). */
    private static final Row UC_DROP = new Row(Response.NONE, null, true, null, null, null);

    static {
        Row invalid = invalidRequest(WcStatus.REM_INV_REQ_ERR);
        rc(PSN_OUT_OF_SEQUENCE, new Row(Response.NAK_PSN_SEQUENCE_ERROR, QpCounter.OUT_OF_SEQUENCE, false, null, null, null));
        uc(PSN_OUT_OF_SEQUENCE, new Row(Response.NONE, QpCounter.OUT_OF_SEQUENCE, true, null, null, null));
        rc(DUPLICATE, new Row(Response.ACK, QpCounter.DUPLICATE_REQUESTS, false, null, null, null));
        rc(DUPLICATE_READ, new Row(Response.REPLAY, QpCounter.DUPLICATE_REQUESTS, false, null, null, null));
        rc(DUPLICATE_ATOMIC, new Row(Response.REPLAY, QpCounter.DUPLICATE_REQUESTS, false, null, null, null));
        for (ResponderOutcome o : new ResponderOutcome[] {MISSING_FIRST, MISSING_LAST, UNSUPPORTED_OPCODE, LENGTH}) {
            rc(o, invalid);
            uc(o, UC_DROP);
        }
        rc(TOO_MANY_RDMA_ATOMIC, invalid);
        rc(MISALIGNED_ATOMIC, invalid);
        rc(INVALIDATE_RKEY, invalid);
        rc(RECV_TOO_SHORT, invalidRequest(WcStatus.LOC_LEN_ERR));
        uc(RECV_TOO_SHORT, UC_DROP);
        ud(RECV_TOO_SHORT, new Row(Response.NONE, null, false, WcStatus.LOC_LEN_ERR, null, null));
        rc(RNR, new Row(Response.RNR_NAK, QpCounter.RNR_NAKS_SENT, false, null, null, null));
        uc(RNR, UC_DROP);
        ud(RNR, new Row(Response.NONE, QpCounter.UD_DATAGRAMS_DROPPED, false, null, null, null));
        // Class A in rxe's words; rdma-unit-test BadRecvAddr: receiver LOC_PROT_ERR, sender REM_OP_ERR.
        Row malformed = new Row(Response.NAK_REMOTE_OPERATIONAL_ERROR, null, false, WcStatus.LOC_PROT_ERR, null, QpState.ERR);
        rc(MALFORMED_WQE, malformed);
        uc(MALFORMED_WQE, malformed);
        ud(MALFORMED_WQE, new Row(Response.NONE, null, false, WcStatus.LOC_PROT_ERR, null, null));
        // Class C access violation: the receive in progress (a WRITE with immediate's) is flushed.
        rc(RKEY_VIOLATION, new Row(Response.NAK_REMOTE_ACCESS_ERROR, QpCounter.REMOTE_ACCESS_ERRORS, false, null,
                AsyncEventType.QP_ACCESS_ERR, QpState.ERR));
        uc(RKEY_VIOLATION, new Row(Response.NONE, QpCounter.REMOTE_ACCESS_ERRORS, true, null, null, null));
        rc(REPLY_RKEY_VIOLATION, new Row(Response.NAK_REMOTE_ACCESS_ERROR, QpCounter.REMOTE_ACCESS_ERRORS, false, null,
                null, QpState.ERR));
        ud(QKEY_VIOLATION, new Row(Response.NONE, QpCounter.UD_DATAGRAMS_DROPPED, false, null, null, null));
    }

    private ErrorTable() {
    }

    private static void rc(ResponderOutcome o, Row row) {
        ROWS[index(o, Transport.RC)] = row;
    }

    private static void uc(ResponderOutcome o, Row row) {
        ROWS[index(o, Transport.UC)] = row;
    }

    private static void ud(ResponderOutcome o, Row row) {
        ROWS[index(o, Transport.UD)] = row;
    }

    private static int index(ResponderOutcome o, Transport t) {
        int column = switch (t) {
            case RC -> 0;
            case UC -> 1;
            case UD -> 2;
            default -> throw new IllegalArgumentException("no responder of transport " + t);
        };
        return o.ordinal() * COLUMNS.length + column;
    }

    /** The row of {@code outcome} on {@code transport}; IllegalArgumentException for one that cannot happen. */
    public static Row row(ResponderOutcome outcome, Transport transport) {
        Row r = ROWS[index(outcome, transport)];
        if (r == null) {
            throw new IllegalArgumentException(outcome + " cannot happen on " + transport);
        }
        return r;
    }

    /** Whether {@code outcome} can happen on {@code transport} (has a row). */
    public static boolean applies(ResponderOutcome outcome, Transport transport) {
        return outcome != EXECUTE && ROWS[index(outcome, transport)] != null;
    }

    /** Every row, by transport then outcome, for documents and the test that walks the table. */
    public static Map<Transport, Map<ResponderOutcome, Row>> rows() {
        Map<Transport, Map<ResponderOutcome, Row>> all = new EnumMap<>(Transport.class);
        for (Transport t : COLUMNS) {
            Map<ResponderOutcome, Row> column = new EnumMap<>(ResponderOutcome.class);
            for (ResponderOutcome o : ResponderOutcome.values()) {
                if (applies(o, t)) {
                    column.put(o, ROWS[index(o, t)]);
                }
            }
            all.put(t, column);
        }
        return all;
    }
}
