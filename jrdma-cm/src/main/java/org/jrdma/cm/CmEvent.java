package org.jrdma.cm;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code struct rdma_cm_event}. Every event must be acked ({@link #ack()}); closing its id
 * waits until it is.
 *
 * <p>{@code status}: 0, or a negative errno ({@code -110} ETIMEDOUT for UNREACHABLE and for a
 * DISCONNECTED whose DREQ went unanswered), or for REJECTED the IB CM reject reason (§7.10),
 * or for a failed UD resolution the SIDR status — as rdma_cm reports them.
 * {@code privateData} is the whole private-data area the message carries, zero filled (56
 * bytes for a REQ, 196 for a REP, 148 for a REJ, 180 for a SIDR_REQ, 136 for a SIDR_REP), or
 * null when the event carries none.
 */
public final class CmEvent {
    private final CmEventType type;
    private final CmId id;
    private final CmId listenId;
    private final int status;
    private final byte[] privateData;
    private final ConnParam param;
    private final UdParam ud;
    private final String detail;
    private final AtomicBoolean acked = new AtomicBoolean();
    /** A backend's rdma_ack_cm_event (org.jrdma.cm.spi), or null for the built-in CM's events. */
    private final Runnable backendAck;

    CmEvent(CmEventType type, CmId id, CmId listenId, int status, byte[] privateData, ConnParam param, UdParam ud, String detail) {
        this(type, id, listenId, status, privateData, param, ud, detail, null);
    }

    CmEvent(CmEventType type, CmId id, CmId listenId, int status, byte[] privateData, ConnParam param, UdParam ud, String detail,
            Runnable backendAck) {
        this.backendAck = backendAck;
        this.type = type;
        this.id = id;
        this.listenId = listenId;
        this.status = status;
        this.privateData = privateData;
        this.param = param;
        this.ud = ud;
        this.detail = detail;
    }

    /**
     * What happened ({@code rdma_cm_event.event}).
     *
     * @return the event type
     */
    public CmEventType type() {
        return type;
    }

    /**
     * The id the event is about ({@code rdma_cm_event.id}).
     *
     * @return the id; for CONNECT_REQUEST the new id of the connection
     */
    public CmId id() {
        return id;
    }

    /**
     * The listening id ({@code rdma_cm_event.listen_id}).
     *
     * @return the listening id for CONNECT_REQUEST; null otherwise
     */
    public CmId listenId() {
        return listenId;
    }

    /**
     * The event's status ({@code rdma_cm_event.status}); see the class comment.
     *
     * @return 0, a negative errno, a reject reason or a SIDR status
     */
    public int status() {
        return status;
    }

    /**
     * The private data the peer's message carried, zero filled to the message's area.
     *
     * @return a copy, or null when the event carries none
     */
    public byte[] privateData() {
        return privateData == null ? null : privateData.clone();
    }

    /**
     * The peer's connection parameters (CONNECT_REQUEST, CONNECT_RESPONSE, ESTABLISHED on the
     * active side).
     *
     * @return the parameters, or null
     */
    public ConnParam param() {
        return param;
    }

    /**
     * For a UD id: the peer's address, QPN and Q_Key (ESTABLISHED after SIDR_REP; CONNECT_REQUEST:
     * the requester's address).
     *
     * @return the UD parameters, or null for an RC id
     */
    public UdParam ud() {
        return ud;
    }

    /**
     * Why, in words, for an error event whose status alone would not tell a user what to do (an
     * ADDR_ERROR names the devices there are). Not in rdma_cm, whose events carry only the status.
     *
     * @return the explanation, or null
     */
    public String detail() {
        return detail;
    }

    /**
     * Acknowledges the event ({@code rdma_ack_cm_event}). Acking twice is a mistake and says so.
     *
     * @throws IllegalStateException if the event was acked already
     */
    public void ack() {
        if (!acked.compareAndSet(false, true)) {
            throw new IllegalStateException(type + " event acked twice");
        }
        if (backendAck != null) {
            backendAck.run();
            return;
        }
        id.eventAcked();
    }

    @Override
    public String toString() {
        return type + (status != 0 ? " status " + status : "") + (privateData != null ? " private data " + privateData.length + " B" : "");
    }
}
