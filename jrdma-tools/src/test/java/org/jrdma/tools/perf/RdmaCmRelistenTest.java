package org.jrdma.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jrdma.cm.CmEvent;
import org.jrdma.cm.CmEventType;
import org.jrdma.cm.CmId;
import org.jrdma.cm.ConnParam;
import org.jrdma.cm.EventChannel;
import org.jrdma.cm.wire.PortSpace;
import org.jrdma.tools.OwnDevices;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QueuePair;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * How perftest's {@code -R} connects its test QPs, which jrdma's own client and server do not
 * do (so jrdma against jrdma never showed it), met by jrdma's side (found in the lab, against
 * rxe's perftest). Both ends here are on one soft device, whose CM agent answers both.
 *
 * <ul>
 * <li>perftest's server makes a second listener for the test QPs only after the blank key swap
 *     (rdma_cm_server_connection), so a client's first test REQ can meet no listener and REJ 8:
 *     ib_read_bw -R failed jrdma's client with "expected ESTABLISHED, got REJECTED (status 8)".
 *     perftest's client tries again, and so must ours.
 * <li>perftest's client with {@code -q N} connects all N at once, so a jrdma server waiting for
 *     its first test connection's ESTABLISHED sees the second's CONNECT_REQUEST first.
 * </ul>
 */
class RdmaCmRelistenTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final ConnParam PARAM = ConnParam.defaults().resources(1, 1).retries(7, 7);
    @RegisterExtension
    static final OwnDevices DEVICE = new OwnDevices("relisten");
    private static String device;
    private static InetAddress address;

    @BeforeAll
    static void deviceAddress() throws Exception {
        device = DEVICE.name();
        address = InetAddress.getByName(DEVICE.address());
    }

    private static PerfConfig config(String host, int port, int qps) {
        return new PerfConfig(PerfTest.READ_BW, host, device, port, 4096, true, false, 10, 0, qps, false, false, 0, null, 0,
                PerfTest.READ_BW.defaultTxDepth(), 512, 100, 16, QpType.RC, AtomicType.FETCH_AND_ADD, false, (Path) null,
                false, false, TIMEOUT, TIMEOUT, 0, true);
    }

    /** An rdma_cm port of this test's own (the CM's service IDs, no socket). */
    private static int port(int salt) {
        return 20000 + (int) ((ProcessHandle.current().pid() * 7 + salt) % 20000);
    }

    private static QpInitAttr attr(Context ctx) {
        CompletionQueue cq = ctx.createCq(16, null);
        return new QpInitAttr().sendCq(cq).recvCq(cq).qpType(QpType.RC).cap(new QpCap(4, 4, 1, 1, 0));
    }

    private static CmEvent event(EventChannel ch, CmEventType type) {
        CmEvent e = ch.getEvent(TIMEOUT);
        assertThat(e.type()).as(e.toString()).isEqualTo(type);
        e.ack();
        return e;
    }

    @Test
    void theClientConnectsATestQpAgainWhileThereIsNoListenerYet() throws Exception {
        int port = port(1);
        try (EventChannel ch = EventChannel.create()) {
            // perftest's server, first phase: a listener for the exchange connection only
            CmId first = CmId.create(ch, PortSpace.TCP, "exchange-listener");
            first.bindAddr(new InetSocketAddress(address, port));
            first.listen(1);
            CompletableFuture<RdmaCmLink> opening = CompletableFuture.supplyAsync(
                    () -> RdmaCmLink.open(config(address.getHostAddress(), port, 1), address, () -> { }, line -> { }));
            CmId exchange = event(ch, CmEventType.CONNECT_REQUEST).id();
            CmPipe pipe = new CmPipe(exchange, () -> false);
            exchange.accept(ConnParam.defaults().resources(0, 0).retries(7, 7));
            event(ch, CmEventType.ESTABLISHED);
            first.close(); // ... destroyed once its connection is accepted
            try (RdmaCmLink client = opening.get(30, TimeUnit.SECONDS)) {
                long received = CmId.deviceCounters(device).get("received");
                CompletableFuture<QueuePair> qp = CompletableFuture.supplyAsync(
                        () -> client.connectData(0, client.context().allocPd(), attr(client.context()), 1));
                // its REQ and the REJ 8 both pass this device's agent: two more MADs received
                long deadline = System.nanoTime() + TIMEOUT.toNanos();
                while (CmId.deviceCounters(device).get("received") < received + 2 && !qp.isDone()) {
                    assertThat(System.nanoTime()).as("the client's first test REQ was refused").isLessThan(deadline);
                    Thread.onSpinWait();
                }
                assertThat(qp).as("refused once, the client keeps trying").isNotDone();
                // second phase, after the blank key swap: the test QPs' listener
                CmId second = CmId.create(ch, PortSpace.TCP, "test-listener");
                second.bindAddr(new InetSocketAddress(address, port));
                second.listen(1);
                CmId test = event(ch, CmEventType.CONNECT_REQUEST).id();
                QueuePair serverQp = test.createQp(test.verbs().allocPd(), attr(test.verbs()));
                test.accept(PARAM);
                event(ch, CmEventType.ESTABLISHED);
                assertThat(qp.get(30, TimeUnit.SECONDS).state()).isEqualTo(QpState.RTS);
                assertThat(serverQp.state()).isEqualTo(QpState.RTS);
                test.close();
                second.close();
            } finally {
                pipe.close();
            }
        }
    }

    @Test
    void theServerTakesTestRequestsThatCameAllAtOnce() throws Exception {
        int port = port(2);
        InetSocketAddress server = new InetSocketAddress(address, port);
        CompletableFuture<RdmaCmLink> listening = CompletableFuture.supplyAsync(
                () -> RdmaCmLink.open(config(null, port, 2), address, () -> { }, line -> { }));
        try (RdmaCmLink client = RdmaCmLink.open(config(address.getHostAddress(), port, 2), address, () -> { }, line -> { });
                RdmaCmLink serving = listening.get(30, TimeUnit.SECONDS);
                EventChannel ch = EventChannel.create()) {
            // perftest's client: both test QPs resolved, then both connects sent before any answer
            List<CmId> ids = new ArrayList<>();
            List<QueuePair> clientQps = new ArrayList<>();
            for (int q = 0; q < 2; q++) {
                CmId id = CmId.create(ch, PortSpace.TCP, "test-" + q);
                id.resolveAddr(new InetSocketAddress(address, 0), server, TIMEOUT);
                event(ch, CmEventType.ADDR_RESOLVED);
                id.resolveRoute(TIMEOUT);
                event(ch, CmEventType.ROUTE_RESOLVED);
                clientQps.add(id.createQp(id.verbs().allocPd(), attr(id.verbs())));
                ids.add(id);
            }
            long received = CmId.deviceCounters(device).get("received");
            for (CmId id : ids) {
                id.connect(PARAM);
            }
            // the server's turn only once both REQs are in (this device's agent receives both)
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (CmId.deviceCounters(device).get("received") < received + 2) {
                assertThat(System.nanoTime()).as("both REQs arrived").isLessThan(deadline);
                Thread.onSpinWait();
            }
            CompletableFuture<List<QueuePair>> serverQps = CompletableFuture.supplyAsync(() -> List.of(
                    serving.connectData(0, serving.context().allocPd(), attr(serving.context()), 1),
                    serving.connectData(1, serving.context().allocPd(), attr(serving.context()), 1)));
            event(ch, CmEventType.ESTABLISHED);
            event(ch, CmEventType.ESTABLISHED);
            for (QueuePair qp : serverQps.get(30, TimeUnit.SECONDS)) {
                assertThat(qp.state()).isEqualTo(QpState.RTS);
            }
            for (QueuePair qp : clientQps) {
                assertThat(qp.state()).isEqualTo(QpState.RTS);
            }
            ids.forEach(CmId::close);
        }
    }
}
