package org.jrdma.cm.spi;

import java.time.Duration;
import org.jrdma.cm.CmEvent;
import org.jrdma.cm.wire.PortSpace;

/** {@code struct rdma_event_channel} of a {@link CmBackend}: its ids and the events they report. */
public interface ChannelBackend extends AutoCloseable {
    /**
     * {@code rdma_create_id} on this channel.
     *
     * @param portSpace TCP or UDP
     * @param context the caller's context
     * @return the backend's id
     */
    IdBackend createId(PortSpace portSpace, Object context);

    /**
     * {@code rdma_get_cm_event} with a deadline.
     *
     * @param timeout how long to wait
     * @return the next event, or null when none came by {@code timeout}
     */
    CmEvent next(Duration timeout);

    /**
     * The next event if one is ready; never blocks.
     *
     * @return the event, or null
     */
    CmEvent poll();

    /** rdma_destroy_event_channel, after destroying the ids still on it; a waiting {@link #next} ends with CLOSED. */
    @Override
    void close();
}
