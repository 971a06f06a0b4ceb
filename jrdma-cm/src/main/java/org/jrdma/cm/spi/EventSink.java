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
    /** The {@link CmId} of an id the backend made itself (a CONNECT_REQUEST's new id). */
    CmId wrap(IdBackend id, PortSpace portSpace, Object context);

    /**
     * An event; {@code ack} runs once, on the first {@link CmEvent#ack()} (rdma_ack_cm_event).
     * Arguments as {@link CmEvent}'s accessors document them.
     */
    CmEvent event(CmEventType type, CmId id, CmId listenId, int status, byte[] privateData, ConnParam param, UdParam ud,
            String detail, Runnable ack);
}
