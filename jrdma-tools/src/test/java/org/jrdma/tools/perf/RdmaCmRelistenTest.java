package org.jrdma.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jrdma.cm.CmId;
import org.jrdma.soft.SoftDeviceDiscovery;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QueuePair;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * perftest's {@code -R} server listens twice: once for the exchange connection, and again for
 * the test QPs only after the blank key swap (rdma_cm_server_connection), so a client's first
 * test REQ can meet no listener and REJ 8. rxe's ib_read_bw -R did that to jrdma's client in
 * the lab ("expected ESTABLISHED, got REJECTED (status 8)"); perftest's client tries again.
 * Here the server side is held between its two listeners until the client's REQ has been
 * refused, then listens: the client's connect must still end ESTABLISHED.
 */
class RdmaCmRelistenTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static String device;
    private static InetAddress address;

    @BeforeAll
    static void ownDevice() throws Exception {
        String spec = PerfPair.deviceSpec("relisten");
        device = spec.substring(0, spec.indexOf('='));
        address = InetAddress.getByName(spec.substring(spec.indexOf('=') + 1));
        System.setProperty(SoftDeviceDiscovery.PROPERTY, spec);
    }

    @AfterAll
    static void forgetDevice() {
        System.clearProperty(SoftDeviceDiscovery.PROPERTY);
    }

    private static PerfConfig config(String host, int port) {
        return new PerfConfig(PerfTest.READ_BW, host, device, port, 4096, true, false, 10, 0, 1, false, false, 0, null, 0,
                PerfTest.READ_BW.defaultTxDepth(), 512, 100, 16, QpType.RC, AtomicType.FETCH_AND_ADD, false, (Path) null,
                false, false, TIMEOUT, TIMEOUT, 0, true);
    }

    private static QueuePair connect(RdmaCmLink link) {
        ProtectionDomain pd = link.context().allocPd();
        CompletionQueue cq = link.context().createCq(16, null);
        return link.connectData(0, pd, new QpInitAttr().sendCq(cq).recvCq(cq).qpType(QpType.RC)
                .cap(new QpCap(4, 4, 1, 1, 0)), 1);
    }

    @Test
    void aTestConnectRefusedBeforeTheServersSecondListenerIsMadeAgain() throws Exception {
        int port = 20000 + (int) (ProcessHandle.current().pid() % 10000);
        CompletableFuture<RdmaCmLink> server = CompletableFuture.supplyAsync(() -> RdmaCmLink.open(config(null, port), address, () -> { }));
        try (RdmaCmLink client = RdmaCmLink.open(config(address.getHostAddress(), port), address, () -> { });
                RdmaCmLink serving = server.get(30, TimeUnit.SECONDS)) {
            // the exchange connection is up and the server's first listener is gone
            long received = CmId.deviceCounters(device).get("received");
            CompletableFuture<QueuePair> clientQp = CompletableFuture.supplyAsync(() -> connect(client));
            // REQ and its REJ 8 both pass this one device's agent: two more MADs received
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (CmId.deviceCounters(device).get("received") < received + 2 && !clientQp.isDone()) {
                assertThat(System.nanoTime()).as("the client's first test REQ was refused").isLessThan(deadline);
                Thread.onSpinWait();
            }
            assertThat(clientQp).as("refused once, the client keeps trying").isNotDone();
            QueuePair serverQp = connect(serving); // the second listener, as perftest's after the swap
            assertThat(clientQp.get(30, TimeUnit.SECONDS).state()).isEqualTo(QpState.RTS);
            assertThat(serverQp.state()).isEqualTo(QpState.RTS);
        }
    }
}
