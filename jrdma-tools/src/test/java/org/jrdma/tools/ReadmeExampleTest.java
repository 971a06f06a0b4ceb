package org.jrdma.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jrdma.bootstrap.Exchange;
import org.jrdma.bootstrap.RcConnection;
import org.jrdma.bootstrap.RcConnector;
import org.jrdma.bootstrap.RcOptions;
import org.jrdma.bootstrap.tcp.TcpExchange;
import org.jrdma.bootstrap.tcp.TcpOptions;
import org.jrdma.bootstrap.tcp.TcpServerExchange;
import org.jrdma.soft.SoftDeviceDiscovery;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.Verbs;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The README's "seed's program, in Java" runs as written (client side), against a server. */
class ReadmeExampleTest {
    @AfterEach
    void forgetDevice() {
        System.clearProperty(SoftDeviceDiscovery.PROPERTY);
    }

    @Test
    void theReadmeClientSendsToAServer() throws Exception {
        System.setProperty(SoftDeviceDiscovery.PROPERTY, FreeLoopback.deviceSpec("readme"));
        TcpServerExchange serverTcp = TcpExchange.server(0, TcpOptions.rcPingpong()).bind();
        CompletableFuture<WorkCompletion> serverGot = CompletableFuture.supplyAsync(() -> server(serverTcp));

        // ---- the README's lines, with "server-host"/18515 replaced by the test server ----
        try (Context ctx = Verbs.device(null).open()) {                  // ibv_open_device
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(128, null);
            MemoryRegion mr = pd.registerMemory(Arena.ofShared().allocate(4096), AccessFlags.LOCAL_WRITE);

            // create QP → TCP exchange of LID/QPN/PSN/GID → socket closed → INIT → RTR → RTS
            Exchange tcp = TcpExchange.client("127.0.0.1", serverTcp.localPort(), TcpOptions.rcPingpong());
            RcConnection c = RcConnector.connect(pd, tcp, RcOptions.defaults(cq));

            c.qp().postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND)
                    .flags(SendFlags.SIGNALED).sg(Sge.of(mr)));                // RDMA from here on
            WorkCompletion[] wc = {new WorkCompletion()};
            while (cq.poll(wc) == 0) Thread.onSpinWait();
            // ---- end of the README's lines ----
            assertThat(wc[0].status).isEqualTo(WcStatus.SUCCESS);
            assertThat(serverGot.get(20, TimeUnit.SECONDS).byteLen).isEqualTo(4096);
        }
    }

    private static WorkCompletion server(TcpServerExchange tcp) {
        try (Context ctx = Verbs.device(null).open()) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(128, null);
            MemoryRegion mr = pd.registerMemory(Arena.ofShared().allocate(4096), AccessFlags.LOCAL_WRITE);
            RcConnection c = RcConnector.connect(pd, tcp, RcOptions.defaults(cq)
                    .onInit(qp -> qp.postRecv(new RecvWorkRequest().wrId(7).sg(Sge.of(mr)))));
            WorkCompletion[] wc = {new WorkCompletion()};
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (cq.poll(wc) == 0) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the server got nothing");
                }
                Thread.onSpinWait();
            }
            c.close();
            return wc[0];
        }
    }
}
