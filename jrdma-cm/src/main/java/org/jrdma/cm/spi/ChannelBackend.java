package org.jrdma.cm.spi;

import java.time.Duration;
import org.jrdma.cm.CmEvent;
import org.jrdma.cm.wire.PortSpace;

/** {@code struct rdma_event_channel} of a {@link CmBackend}: its ids and the events they report. */
public interface ChannelBackend extends AutoCloseable {
    /** rdma_create_id on this channel; {@code context} is the caller's. */
    IdBackend createId(PortSpace portSpace, Object context);

    /** rdma_get_cm_event with a deadline: the next event, or null when none came by {@code timeout}. */
    CmEvent next(Duration timeout);

    /** The next event if one is ready, else null; never blocks. */
    CmEvent poll();

    /** rdma_destroy_event_channel, after destroying the ids still on it; a waiting {@link #next} ends with CLOSED. */
    @Override
    void close();
}
