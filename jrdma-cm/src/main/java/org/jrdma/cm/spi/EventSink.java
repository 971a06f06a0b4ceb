package org.jrdma.cm.spi;

import org.jrdma.cm.CmEvent;
import org.jrdma.cm.CmEventType;
import org.jrdma.cm.CmId;
import org.jrdma.cm.ConnParam;
import org.jrdma.cm.UdParam;
import org.jrdma.cm.wire.PortSpace;

/**
 * What jrdma-cm gives a {@link ChannelBackend} so that its ids and events are the API's own
 * classes (whose constructors stay package-private).
 */
public interface EventSink {
    /**
     * The {@link CmId} of an id the backend made itself (a CONNECT_REQUEST's new id).
     *
     * @param id the backend's id
     * @param portSpace its port space
     * @param context its user context (the listener's)
     * @return the API's id
     */
    CmId wrap(IdBackend id, PortSpace portSpace, Object context);

    /**
     * An event; {@code ack} runs once, on the first {@link CmEvent#ack()} ({@code rdma_ack_cm_event}).
     * Arguments as {@link CmEvent}'s accessors document them.
     *
     * @param type the event type
     * @param id the id it is about
     * @param listenId the listening id (CONNECT_REQUEST), or null
     * @param status 0, a negative errno, a reject reason or a SIDR status
     * @param privateData the peer's private data, or null
     * @param param the peer's connection parameters, or null
     * @param ud the UD parameters, or null
     * @param detail why, in words, or null
     * @param ack the backend's acknowledgement
     * @return the API's event
     */
    CmEvent event(CmEventType type, CmId id, CmId listenId, int status, byte[] privateData, ConnParam param, UdParam ud,
            String detail, Runnable ack);
}
