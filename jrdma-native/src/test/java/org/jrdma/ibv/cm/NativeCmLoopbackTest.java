package org.jrdma.ibv.cm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.jrdma.cm.CmError;
import org.jrdma.cm.CmEvent;
import org.jrdma.cm.CmEventType;
import org.jrdma.cm.CmException;
import org.jrdma.cm.CmId;
import org.jrdma.cm.CmOptions;
import org.jrdma.cm.ConnParam;
import org.jrdma.cm.EventChannel;
import org.jrdma.cm.wire.PortSpace;
import org.jrdma.ibv.NativeContext;
import org.jrdma.ibv.NativeProvider;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QueuePair;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * jrdma-cm's API on librdmacm against the kernel's rdma_cm, through a device's own address
 * (rxe loops a connection to itself back): JRDMA_NATIVE_CM_ADDR names that address (the lab's
 * interop/rxe-native-cm.sh sets it to the guest's 10.77.0.2). Skipped without it or without a
 * usable native CM, naming which.
 */
class NativeCmLoopbackTest {
    private static final Duration STEP = Duration.ofSeconds(20);
    private InetAddress addr;
    private EventChannel ch;

    @BeforeEach
    void channel() throws Exception {
        String a = System.getenv("JRDMA_NATIVE_CM_ADDR");
        assumeTrue(a != null && !a.isBlank(), "JRDMA_NATIVE_CM_ADDR is not set (an RDMA device's IP address; lab: 10.77.0.2)");
        NativeCmBackend b = new NativeCmBackend();
        assumeTrue(b.isAvailable(), () -> "the native CM cannot run here: " + b.unavailabilityCause());
        addr = InetAddress.getByName(a);
        ch = EventChannel.create(CmOptions.defaults().devices(() -> new NativeProvider().devices()));
    }

    @AfterEach
    void close() {
        if (ch != null) {
            ch.close();
        }
    }

    private CmEvent expect(CmEventType type) {
        CmEvent e = ch.getEvent(STEP);
        assertThat(e.type()).as("event %s (status %d)", e, e.status()).isEqualTo(type);
        return e;
    }

    private CmId listener() {
        CmId l = CmId.create(ch, PortSpace.TCP, "listener");
        l.bindAddr(new InetSocketAddress(addr, 0));
        l.listen(4);
        assertThat(l.port()).isPositive();
        assertThat(l.localAddress().getAddress()).isEqualTo(addr);
        return l;
    }

    private CmId resolved(int port) {
        CmId c = CmId.create(ch, PortSpace.TCP, "client");
        c.resolveAddr(null, new InetSocketAddress(addr, port), STEP);
        expect(CmEventType.ADDR_RESOLVED).ack();
        c.resolveRoute(STEP);
        expect(CmEventType.ROUTE_RESOLVED).ack();
        return c;
    }

    private static QueuePair qp(CmId id) {
        Context ctx = id.verbs();
        assertThat(ctx).isInstanceOf(NativeContext.class);
        CompletionQueue cq = ctx.createCq(16, null);
        QpInitAttr attr = new QpInitAttr().qpType(QpType.RC).cq(cq).cap(new QpCap(4, 4, 1, 1, 0));
        QueuePair qp = id.createQp(ctx.allocPd(), attr);
        assertThat(qp.state()).as("rdma_create_qp moves it to INIT").isEqualTo(QpState.INIT);
        return qp;
    }

    @Test
    void aWaitWithNoEventTimesOutTyped() {
        long t0 = System.nanoTime();
        CmException e = assertThrows(CmException.class, () -> ch.getEvent(Duration.ofMillis(300)));
        assertThat(e.error()).isEqualTo(CmError.TIMED_OUT);
        assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(250_000_000L);
        assertThat(ch.poll()).isNull();
    }

    @Test
    void connectAcceptCarriesPrivateDataAndParamsThenBothSidesDisconnect() {
        try (CmId l = listener(); CmId c = resolved(l.port())) {
            QueuePair cq = qp(c);
            c.connect(ConnParam.withPrivateData("hello".getBytes(StandardCharsets.US_ASCII)).resources(1, 1).retries(6, 5));
            CmEvent req = expect(CmEventType.CONNECT_REQUEST);
            assertThat(req.listenId()).isSameAs(l);
            assertThat(new String(req.privateData(), 0, 5, StandardCharsets.US_ASCII)).isEqualTo("hello");
            assertThat(req.param().responderResources()).as("the peer's initiator depth, swapped").isEqualTo(1);
            assertThat(req.param().rnrRetryCount()).isEqualTo(5);
            CmId s = req.id();
            assertThat(s.context()).isEqualTo("listener");
            assertThat(s.peerAddress().getAddress()).isEqualTo(addr);
            req.ack();
            QueuePair sq = qp(s);
            s.accept(ConnParam.withPrivateData("world".getBytes(StandardCharsets.US_ASCII)));
            CmEvent est1 = ch.getEvent(STEP);
            CmEvent est2 = ch.getEvent(STEP);
            assertThat(java.util.List.of(est1.type(), est2.type())).containsOnly(CmEventType.ESTABLISHED);
            CmEvent atClient = est1.id() == c ? est1 : est2;
            assertThat(new String(atClient.privateData(), 0, 5, StandardCharsets.US_ASCII)).isEqualTo("world");
            est1.ack();
            est2.ack();
            assertThat(cq.state()).isEqualTo(QpState.RTS);
            assertThat(sq.state()).isEqualTo(QpState.RTS);
            assertThat(c.qp()).isSameAs(cq);
            c.disconnect();
            assertThat(cq.state()).as("rdma_disconnect moves the QP to ERR").isEqualTo(QpState.ERR);
            CmEvent atServer = expect(CmEventType.DISCONNECTED); // the client's DREQ
            assertThat(atServer.id()).isSameAs(s);
            atServer.ack();
            s.disconnect(); // the DREP, as rdma_cm's passive side sends it
            CmEvent atClient2 = expect(CmEventType.DISCONNECTED);
            assertThat(atClient2.id()).isSameAs(c);
            atClient2.ack();
            s.close();
        }
    }

    @Test
    void aRejectReachesTheClientWithReasonAndPrivateData() {
        try (CmId l = listener(); CmId c = resolved(l.port())) {
            qp(c);
            c.connect(null);
            CmEvent req = expect(CmEventType.CONNECT_REQUEST);
            req.ack();
            req.id().reject("busy".getBytes(StandardCharsets.US_ASCII));
            CmEvent rej = expect(CmEventType.REJECTED);
            assertThat(rej.status()).as("IB CM reason 28, consumer defined").isEqualTo(28);
            assertThat(new String(rej.privateData(), 0, 4, StandardCharsets.US_ASCII)).isEqualTo("busy");
            assertThat(c.qp().state()).as("a REJ moves the QP to ERR").isEqualTo(QpState.ERR);
            CmException e = EventChannel.unexpected(CmEventType.ESTABLISHED, rej);
            assertThat(e.error()).isEqualTo(CmError.CONNECTION_REFUSED);
            rej.ack();
        }
    }

    @Test
    void aPortNobodyListensOnIsRejectedInvalidServiceId() {
        int port;
        try (CmId probe = listener()) {
            port = probe.port(); // free now, and nobody else's
        }
        try (CmId c = resolved(port)) {
            qp(c);
            c.connect(null);
            CmEvent rej = expect(CmEventType.REJECTED);
            assertThat(rej.status()).isEqualTo(8);
            rej.ack();
        }
    }

    @Test
    void destroyAcksWhatTheCallerHoldsAndADestroyedIdFailsTyped() {
        CmId l = listener();
        CmId c = resolved(l.port());
        qp(c);
        c.connect(null);
        CmEvent held = expect(CmEventType.CONNECT_REQUEST); // never acked by the caller
        // rdma_destroy_id would wait for ever for the unacked CONNECT_REQUEST: ours acks it first
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> l.close());
        CmException e = assertThrows(CmException.class, () -> l.listen(1));
        assertThat(e.error()).isEqualTo(CmError.CLOSED);
        assertThat(e.getMessage()).contains("rdma_listen", "destroyed");
        held.ack(); // after the destroy: harmless
        assertThrows(IllegalStateException.class, held::ack);
        held.id().close();
        c.close();
        assertThrows(CmException.class, () -> c.connect(null));
    }

    @Test
    void aQpClosedDirectlyIsForgottenBeforeLibrdmacmTouchesIt() {
        try (CmId l = listener(); CmId c = resolved(l.port())) {
            QueuePair q = qp(c);
            q.close(); // not through destroyQp: id->qp must not name the freed QP
            assertThat(c.qp()).isNull();
            try {
                c.disconnect(); // librdmacm moves id->qp to ERR before it asks the kernel: it must find none
            } catch (CmException notConnected) {
                assertThat(notConnected.getMessage()).startsWith("rdma_disconnect");
            }
            QueuePair again = qp(c);
            assertThat(c.qp()).isSameAs(again);
        }
    }

    @Test
    void closingTheChannelDestroysItsIds() {
        CmId l = listener();
        ch.close();
        assertThat(assertThrows(CmException.class, () -> l.listen(1)).error()).isEqualTo(CmError.CLOSED);
        assertThat(assertThrows(CmException.class, () -> ch.poll()).error()).isEqualTo(CmError.CLOSED);
        l.close(); // idempotent after the channel took it down
        ch = null;
    }
}
