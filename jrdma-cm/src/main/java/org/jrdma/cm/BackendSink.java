package org.jrdma.cm;

import org.jrdma.cm.spi.EventSink;
import org.jrdma.cm.spi.IdBackend;
import org.jrdma.cm.wire.PortSpace;

/** How a backend's channel makes this package's ids and events (their constructors stay package-private). */
final class BackendSink implements EventSink {
    private final EventChannel channel;

    BackendSink(EventChannel channel) {
        this.channel = channel;
    }

    @Override
    public CmId wrap(IdBackend id, PortSpace portSpace, Object context) {
        return CmId.ofBackend(channel, portSpace, context, id);
    }

    @Override
    public CmEvent event(CmEventType type, CmId id, CmId listenId, int status, byte[] privateData, ConnParam param, UdParam ud,
            String detail, Runnable ack) {
        return new CmEvent(type, id, listenId, status, privateData, param, ud, detail, java.util.Objects.requireNonNull(ack, "ack"));
    }
}
