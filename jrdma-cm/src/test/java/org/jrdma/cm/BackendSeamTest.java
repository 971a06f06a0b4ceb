package org.jrdma.cm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jrdma.cm.spi.ChannelBackend;
import org.jrdma.cm.spi.CmBackend;
import org.jrdma.cm.spi.EventSink;
import org.jrdma.cm.spi.IdBackend;
import org.jrdma.cm.wire.PortSpace;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QueuePair;
import org.junit.jupiter.api.Test;

/**
 * The seam of org.jrdma.cm.spi with a recording backend: which CM a channel takes, and that every
 * CmId and EventChannel call, every event and every ack goes to the backend — the built-in CM's
 * state is not touched.
 */
class BackendSeamTest {
    @Test
    void theFirstDevicesProviderPicksTheBackend() {
        Recorder fake = new Recorder("fake");
        assertThat(Backends.choose(List.of(fake), () -> List.of(device("fake"), device("soft")))).isSameAs(fake);
        assertThat(Backends.choose(List.of(fake), () -> List.of(device("soft"), device("fake")))).isNull();
        assertThat(Backends.choose(List.of(fake), List::of)).isNull();
        AtomicInteger asked = new AtomicInteger();
        assertThat(Backends.choose(List.of(), () -> {
            asked.incrementAndGet();
            return List.of(device("fake"));
        })).isNull();
        assertThat(asked).as("no backend loaded: the devices are not even asked for").hasValue(0);
    }

    @Test
    void aBackendThatCannotRunFailsTheChannelWithItsCause() {
        Recorder broken = new Recorder("fake");
        broken.cause = "libfake.so.1 not found: install it";
        CmException e = assertThrows(CmException.class, () -> Backends.choose(List.of(broken), () -> List.of(device("fake"))));
        assertThat(e.error()).isEqualTo(CmError.NO_DEVICE);
        assertThat(e.getMessage()).contains("dev-fake", "libfake.so.1 not found: install it");
    }

    @Test
    void everyCallEventAndAckGoesToTheBackend() throws Exception {
        Recorder fake = new Recorder("fake");
        EventChannel ch = new EventChannel(CmOptions.defaults(), fake);
        CmId id = CmId.create(ch, PortSpace.TCP, "ctx");
        InetSocketAddress a = new InetSocketAddress("10.0.0.1", 7174);
        id.bindAddr(a);
        id.listen(0);
        id.resolveAddr(null, a, Duration.ofSeconds(1));
        id.resolveRoute(Duration.ofSeconds(1));
        id.connect(ConnParam.withPrivateData(new byte[] {1, 2}));
        id.accept(null);
        id.reject(new byte[] {3});
        id.establish();
        id.disconnect();
        id.destroyQp();
        assertThat(id.port()).isEqualTo(7174);
        assertThat(id.localAddress()).isEqualTo(a);
        assertThat(id.counters()).isEmpty();
        assertThat(fake.id.calls).containsExactly("attached", "bind " + a, "listen 0", "resolve null->" + a, "route",
                "connect 2 B", "accept 0 B", "reject 1 B", "establish", "disconnect", "destroyQp");

        // a CONNECT_REQUEST with a new id the backend made, then its ack
        FakeId child = new FakeId();
        CmId childApi = fake.sink.wrap(child, PortSpace.TCP, id.context());
        AtomicInteger acks = new AtomicInteger();
        fake.events.add(fake.sink.event(CmEventType.CONNECT_REQUEST, childApi, id, 0, new byte[56], ConnParam.defaults(), null,
                null, acks::incrementAndGet));
        CmEvent e = ch.getEvent(Duration.ofSeconds(1));
        assertThat(e.type()).isEqualTo(CmEventType.CONNECT_REQUEST);
        assertThat(e.id()).isSameAs(childApi);
        assertThat(e.listenId()).isSameAs(id);
        assertThat(childApi.context()).isEqualTo("ctx");
        assertThat(child.calls).containsExactly("attached");
        e.ack();
        assertThat(acks).hasValue(1);
        assertThrows(IllegalStateException.class, e::ack);
        assertThat(acks).as("the backend's ack runs once").hasValue(1);

        CmException none = assertThrows(CmException.class, () -> ch.getEvent(Duration.ofMillis(10)));
        assertThat(none.error()).isEqualTo(CmError.TIMED_OUT);
        assertThat(ch.poll()).isNull();
        id.close();
        assertThat(fake.id.calls).endsWith("close");
        ch.close();
        assertThat(fake.closed).isTrue();
    }

    private static Device device(String provider) {
        return new Device() {
            @Override
            public String name() {
                return "dev-" + provider;
            }

            @Override
            public String provider() {
                return provider;
            }

            @Override
            public long guid() {
                return 0;
            }

            @Override
            public String description() {
                return provider;
            }

            @Override
            public Context open() {
                throw new UnsupportedOperationException();
            }
        };
    }

    /** A backend that records what reaches it; its events are queued by the test. */
    private static final class Recorder implements CmBackend, ChannelBackend {
        private final String provider;
        String cause;
        EventSink sink;
        FakeId id;
        boolean closed;
        final ArrayDeque<CmEvent> events = new ArrayDeque<>();

        Recorder(String provider) {
            this.provider = provider;
        }

        @Override
        public String provider() {
            return provider;
        }

        @Override
        public boolean isAvailable() {
            return cause == null;
        }

        @Override
        public String unavailabilityCause() {
            return cause;
        }

        @Override
        public ChannelBackend openChannel(EventSink s) {
            sink = s;
            return this;
        }

        @Override
        public IdBackend createId(PortSpace portSpace, Object context) {
            id = new FakeId();
            return id;
        }

        @Override
        public CmEvent next(Duration timeout) {
            return events.poll();
        }

        @Override
        public CmEvent poll() {
            return events.poll();
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    private static final class FakeId implements IdBackend {
        final List<String> calls = new ArrayList<>();
        private InetSocketAddress local;

        @Override
        public void attached(CmId api) {
            calls.add("attached");
        }

        @Override
        public void bindAddr(InetSocketAddress address) {
            local = address;
            calls.add("bind " + address);
        }

        @Override
        public void listen(int backlog) {
            calls.add("listen " + backlog);
        }

        @Override
        public void resolveAddr(InetSocketAddress src, InetSocketAddress dst, Duration timeout) {
            calls.add("resolve " + src + "->" + dst);
        }

        @Override
        public void resolveRoute(Duration timeout) {
            calls.add("route");
        }

        @Override
        public QueuePair createQp(ProtectionDomain pd, QpInitAttr attr) {
            calls.add("createQp");
            return null;
        }

        @Override
        public QueuePair qp() {
            return null;
        }

        @Override
        public void destroyQp() {
            calls.add("destroyQp");
        }

        @Override
        public Context verbs() {
            return null;
        }

        @Override
        public void connect(ConnParam param) {
            calls.add("connect " + param.privateData().length + " B");
        }

        @Override
        public void accept(ConnParam param) {
            calls.add("accept " + param.privateData().length + " B");
        }

        @Override
        public void reject(byte[] privateData) {
            calls.add("reject " + privateData.length + " B");
        }

        @Override
        public void establish() {
            calls.add("establish");
        }

        @Override
        public void disconnect() {
            calls.add("disconnect");
        }

        @Override
        public InetSocketAddress localAddress() {
            return local;
        }

        @Override
        public InetSocketAddress peerAddress() {
            return null;
        }

        @Override
        public int port() {
            return local == null ? 0 : local.getPort();
        }

        @Override
        public void close(Duration timeout) {
            calls.add("close");
        }
    }
}
