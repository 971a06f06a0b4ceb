package org.jrdma.examples;

import java.lang.foreign.Arena;
import java.util.function.IntConsumer;
import org.jrdma.bootstrap.Exchange;
import org.jrdma.bootstrap.RcConnection;
import org.jrdma.bootstrap.RcConnector;
import org.jrdma.bootstrap.RcOptions;
import org.jrdma.bootstrap.tcp.TcpExchange;
import org.jrdma.bootstrap.tcp.TcpOptions;
import org.jrdma.bootstrap.tcp.TcpServerExchange;
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

/**
 * The seed's program: both sides swap connection info over TCP (ibv_rc_pingpong's 52-byte
 * messages and "done"), close the socket, walk their QPs RESET → INIT → RTR → RTS, and the
 * client SENDs 4096 bytes that the server RECVs. {@code Seed server [port]} on one host,
 * {@code Seed client host [port]} on the other (port 18515 by default).
 */
public final class Seed {
    private Seed() {
    }

    public static void main(String[] args) {
        Args a = Args.parse("Seed", args, TcpExchange.DEFAULT_PORT);
        WorkCompletion wc = seed(a.host(), a.port(), port -> System.out.println("Seed: listening on TCP port " + port));
        System.out.println(a.isServer() ? "Seed server: received " + wc.byteLen + " bytes (" + wc.opcode + ")"
                : "Seed client: sent 4096 bytes, acknowledged (" + wc.opcode + ")");
    }

    // tag::seed[]
    /** Server: seed(null, 18515, p -> {}). Client: seed("server-host", 18515, p -> {}). Returns the one completion. */
    static WorkCompletion seed(String serverHost, int port, IntConsumer listening) {
        try (Arena arena = Arena.ofShared(); Context ctx = Verbs.device(null).open()) {   // ibv_open_device
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(128, null);
            MemoryRegion mr = pd.registerMemory(arena.allocate(4096), AccessFlags.LOCAL_WRITE, arena);

            // create QP → TCP exchange of LID/QPN/PSN/GID → socket closed → INIT → RTR → RTS
            Exchange tcp;
            if (serverHost == null) {                         // port 0: a free port, which listening learns
                TcpServerExchange server = TcpExchange.server(port, TcpOptions.rcPingpong()).bind();
                listening.accept(server.localPort());
                tcp = server;
            } else {
                tcp = TcpExchange.client(serverHost, port, TcpOptions.rcPingpong());
            }
            RcOptions options = RcOptions.defaults(cq)        // receives go in at INIT, before the peer can send
                    .onInit(qp -> qp.postRecv(new RecvWorkRequest().wrId(2).sg(Sge.of(mr))));
            try (RcConnection c = RcConnector.connect(pd, tcp, options)) {
                if (serverHost != null) {                     // the client sends 4096 bytes: RDMA from here on
                    c.qp().postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND)
                            .flags(SendFlags.SIGNALED).sg(Sge.of(mr)));
                }
                WorkCompletion[] wc = {new WorkCompletion()};  // client: its SEND, acknowledged; server: the RECV
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (cq.poll(wc) == 0) {
                    if (System.nanoTime() > deadline) throw new IllegalStateException("no completion within 10 s");
                    Thread.onSpinWait();
                }
                if (wc[0].status != WcStatus.SUCCESS) throw new IllegalStateException(wc[0].status.str());
                return wc[0];
            }
        }
    }
    // end::seed[]
}
