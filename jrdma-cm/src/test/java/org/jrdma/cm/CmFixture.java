package org.jrdma.cm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.jrdma.cm.Cm.ack;
import static org.jrdma.cm.Cm.expect;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jrdma.cm.wire.PortSpace;
import org.jrdma.cm.wire.RejectReason;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
/**
 * Two event channels, a server and a client device, helpers that connect a pair, and a
 * teardown that closes what a test made while acking the events the teardown produces.
 */
abstract class CmFixture {
    protected Device serverDevice;
    protected Device clientDevice;
    protected EventChannel server;
    protected EventChannel client;
    protected final List<AutoCloseable> cleanup = new ArrayList<>();
    private final List<EventChannel> channels = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** The options both channels use (devices, transport, fast timers). */
    protected abstract CmOptions options();

    @BeforeEach
    void channels() {
        server = channel(options());
        client = channel(options());
    }

    /** Closes what the test made, newest first, while acking whatever events the teardown still produces. */
    @AfterEach
    void closeAll() throws Exception {
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        Thread drainer = Thread.ofVirtual().start(() -> {
            while (!done.get()) {
                for (EventChannel ch : channels) {
                    try {
                        ch.getEvent(Duration.ofMillis(20)).ack();
                    } catch (CmException | IllegalStateException ignored) {
                        // nothing queued (or acked already)
                    }
                }
            }
        });
        Exception first = null;
        try {
            for (int i = cleanup.size() - 1; i >= 0; i--) {
                try {
                    cleanup.get(i).close();
                } catch (Exception e) {
                    first = first == null ? e : first;
                }
            }
        } finally {
            cleanup.clear();
            done.set(true);
            drainer.join();
            channels.forEach(EventChannel::close);
            channels.clear();
        }
        if (first != null) {
            throw first;
        }
    }

    /** Another event channel, drained and closed with the test's teardown. */
    protected EventChannel channel(CmOptions o) {
        EventChannel ch = EventChannel.create(o);
        channels.add(ch);
        return ch;
    }

    protected <T extends AutoCloseable> T track(T t) {
        cleanup.add(t);
        return t;
    }

    /** The server side of one connection: its id, endpoint and CONNECT_REQUEST event. */
    protected record Accepted(CmId id, Cm.Endpoint ep, CmEvent request) {
    }

    protected Accepted takeRequest(CmId listener) {
        CmEvent req = expect(server, CmEventType.CONNECT_REQUEST);
        assertThat(req.listenId()).isSameAs(listener);
        CmId id = track(req.id());
        Cm.Endpoint ep = track(new Cm.Endpoint(id, QpType.RC));
        req.ack();
        return new Accepted(id, ep, req);
    }

    /** Connects a client id with an endpoint to a fresh listener; both ESTABLISHED events acked. */
    protected record Pair(CmId listener, CmId client, Cm.Endpoint clientEp, Accepted server) {
    }

    protected Pair connected() {
        CmId listener = track(Cm.listener(server, serverDevice, PortSpace.TCP, 8));
        CmId c = track(Cm.resolved(client, clientDevice, listener, PortSpace.TCP));
        Cm.Endpoint cep = track(new Cm.Endpoint(c, QpType.RC));
        c.connect(null);
        Accepted s = takeRequest(listener);
        s.id().accept(null);
        ack(client, CmEventType.ESTABLISHED);
        ack(server, CmEventType.ESTABLISHED);
        return new Pair(listener, c, cep, s);
    }

    /** After the test's events, nothing more comes: no repeated ESTABLISHED or DISCONNECTED. */
    protected void quiet() {
        assertThat(server.poll()).isNull();
        assertThat(client.poll()).isNull();
    }

    protected void disconnectBoth(Pair p) {
        p.client().disconnect();
        ack(server, CmEventType.DISCONNECTED);
        p.server().id().disconnect();
        ack(client, CmEventType.DISCONNECTED);
        ack(client, CmEventType.TIMEWAIT_EXIT);
        ack(server, CmEventType.TIMEWAIT_EXIT);
    }

}
