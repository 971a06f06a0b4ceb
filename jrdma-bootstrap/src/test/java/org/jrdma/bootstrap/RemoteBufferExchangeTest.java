package org.jrdma.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jrdma.bootstrap.tcp.TcpExchange;
import org.jrdma.bootstrap.tcp.TcpOptions;
import org.jrdma.bootstrap.tcp.TcpServerExchange;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * End to end on a soft device: the server offers a region with {@code RcOptions.exposing}, the
 * TCP exchange carries its rkey and address in perftest's key message, and the client's RDMA
 * WRITE lands there through {@link RcConnection#remoteBuffer()} alone — no SEND carries them.
 */
class RemoteBufferExchangeTest {
    private static final int SIZE = 4096;
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private Device device;
    private ExecutorService serverThread;

    @BeforeEach
    void start() throws Exception {
        device = SoftDevices.free("rbx");
        serverThread = Executors.newSingleThreadExecutor(r -> Thread.ofPlatform().daemon().name("rbx-server").unstarted(r));
    }

    @AfterEach
    void stop() {
        serverThread.shutdownNow();
    }

    @Test
    void theClientWritesIntoTheBufferTheServerExposedInThePerftestExchange() throws Exception {
        byte[] data = new byte[SIZE];
        new Random(0x16).nextBytes(data);
        try (Side server = new Side(device); Side client = new Side(device)) {
            // LOCAL_WRITE only on the QP: exposing must add the region's REMOTE_WRITE, or the WRITE fails.
            MemoryRegion exposed = server.region(AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
            RcOptions serverOptions = RcOptions.defaults(server.cq).exposing(exposed)
                    .onInit(qp -> qp.postRecv(new RecvWorkRequest().wrId(9)));   // for the client's empty "written"
            assertThat(serverOptions.accessFlags()).isEqualTo(AccessFlags.LOCAL_WRITE);
            assertThat(serverOptions.qpAccessFlags()).isEqualTo(AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);

            TcpServerExchange tcp = TcpExchange.server(LOOPBACK, 0, TcpOptions.perftest()).bind();
            Future<RcConnection> accepted = serverThread.submit(() -> RcConnector.connect(server.pd, tcp, serverOptions));
            MemoryRegion out = client.region(AccessFlags.LOCAL_WRITE);
            out.segment().copyFrom(MemorySegment.ofArray(data));
            try (RcConnection c = RcConnector.connect(client.pd, TcpExchange.client("127.0.0.1", tcp.localPort(),
                    TcpOptions.perftest()), RcOptions.defaults(client.cq));
                    RcConnection s = accepted.get(WAIT.toSeconds(), TimeUnit.SECONDS)) {
                assertThat(s.local().buffer()).isEqualTo(new RemoteBuffer(exposed.addr(), exposed.rkey()));
                RemoteBuffer target = c.remoteBuffer();
                assertThat(target).isEqualTo(RemoteBuffer.of(exposed));

                c.qp().postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED)
                        .sg(Sge.of(out)).rdma(target.address(), target.rkey()));
                assertThat(client.next("the RDMA WRITE").status).isEqualTo(WcStatus.SUCCESS);
                c.qp().postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED));
                client.next("the SEND after it");
                server.next("the client's SEND, after its WRITE (RC order)");
                assertThat(exposed.segment().toArray(ValueLayout.JAVA_BYTE)).isEqualTo(data);

                // The client exposed nothing: the server's view of it says so, clearly.
                assertThat(s.remote().buffer()).isNull();
                assertThatThrownBy(s::remoteBuffer).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("the peer sent no buffer").hasMessageContaining("RcOptions.exposing");
            }
        }
    }

    @Test
    void exposingOverRcPingpongsExchangeFailsNamingTheCodecAndLeavesNoQp() throws Exception {
        try (Side server = new Side(device); Side client = new Side(device)) {
            MemoryRegion exposed = server.region(AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
            TcpServerExchange tcp = TcpExchange.server(LOOPBACK, 0, TcpOptions.rcPingpong()).bind();
            Future<RcConnection> accepted = serverThread.submit(
                    () -> RcConnector.connect(server.pd, tcp, RcOptions.defaults(server.cq).exposing(exposed)));
            assertThatThrownBy(() -> RcConnector.connect(client.pd, TcpExchange.client("127.0.0.1", tcp.localPort(),
                    TcpOptions.rcPingpong()), RcOptions.defaults(client.cq))).isInstanceOf(BootstrapException.class);
            assertThatThrownBy(() -> accepted.get(WAIT.toSeconds(), TimeUnit.SECONDS))
                    .hasCauseInstanceOf(IllegalArgumentException.class)
                    .cause().hasMessageContaining("rc_pingpong text").hasMessageContaining("TcpOptions.perftest()");
        }
    }

    /** One side's context, PD, CQ and regions, all on the one soft device. */
    private static final class Side implements AutoCloseable {
        final Arena arena = Arena.ofShared();
        final Context ctx;
        final ProtectionDomain pd;
        final CompletionQueue cq;

        Side(Device device) {
            ctx = device.open();
            pd = ctx.allocPd();
            cq = ctx.createCq(16, null);
        }

        MemoryRegion region(int access) {
            return pd.registerMemory(arena.allocate(SIZE, 8), access, arena);
        }

        WorkCompletion next(String what) {
            WorkCompletion[] wc = {new WorkCompletion()};
            long end = System.nanoTime() + WAIT.toNanos();
            while (cq.poll(wc) == 0) {
                if (System.nanoTime() > end) {
                    throw new AssertionError("no completion for " + what + " within " + WAIT);
                }
                Thread.onSpinWait();
            }
            assertThat(wc[0].status).as(what).isEqualTo(WcStatus.SUCCESS);
            return wc[0];
        }

        @Override
        public void close() {
            ctx.close();     // with its QPs, CQ, PD and regions, as the examples' try-with-resources does
            arena.close();
        }
    }
}
