package org.jrdma.examples;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.function.IntConsumer;
import org.jrdma.bootstrap.Exchange;
import org.jrdma.bootstrap.RcConnection;
import org.jrdma.bootstrap.RcConnector;
import org.jrdma.bootstrap.RcOptions;
import org.jrdma.bootstrap.RemoteBuffer;
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
import org.jrdma.verbs.WrOpcode;

/**
 * One-sided RDMA: the server registers a 4096-byte buffer for remote WRITE and READ and tells
 * the client its address and rkey; the client WRITEs its data there and READs it back, and the
 * server's CPU takes no part in either. {@code WriteRead server [port]} /
 * {@code WriteRead client host [port]} (port 18515 by default).
 *
 * <p>The address and rkey travel in the TCP exchange with what the QPs need, in perftest's key
 * message ({@code TcpOptions.perftest()}): the server offers the buffer with
 * {@code RcOptions.exposing}, the client finds it in {@code RcConnection.remoteBuffer()}. The
 * socket carries them in clear, as perftest's does; {@code withSecurity} (a pre-shared key or
 * TLS) authenticates the peer and encrypts them.
 */
public final class WriteRead {
    static final int SIZE = 4096;

    private WriteRead() {
    }

    public static void main(String[] args) {
        Args a = Args.parse("WriteRead", args, TcpExchange.DEFAULT_PORT);
        if (a.isServer()) {
            byte[] written = server(a.port(), port -> System.out.println("WriteRead: listening on TCP port " + port));
            System.out.println("WriteRead server: the client wrote \"" + text(written) + "\"");
        } else {
            byte[] data = new byte[SIZE];
            byte[] line = "written by RDMA WRITE, read back by RDMA READ; ".getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < SIZE; i++) {
                data[i] = line[i % line.length];
            }
            byte[] back = client(a.host(), a.port(), data);
            System.out.println("WriteRead client: wrote " + SIZE + " bytes and read back \"" + text(back) + "\"");
        }
    }

    // tag::write-read-server[]
    /** Lends a buffer to the client's WRITE and READ; returns what it holds when the client is done. */
    static byte[] server(int port, IntConsumer listening) {
        try (Arena arena = Arena.ofShared(); Context ctx = Verbs.device(null).open()) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(16, null);
            MemoryRegion buffer = pd.registerMemory(ctx.allocateMemory(SIZE, arena),  // what this device reaches best
                    AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ, arena);

            TcpServerExchange tcp = TcpExchange.server(port, TcpOptions.perftest()).bind();  // carries rkey and address
            listening.accept(tcp.localPort());
            RcOptions options = RcOptions.defaults(cq)
                    .exposing(buffer)                         // address and rkey to the client, which may write and read it
                    .onInit(qp -> qp.postRecv(new RecvWorkRequest().wrId(1)));  // for "done", which is empty
            try (RcConnection _ = RcConnector.connect(pd, tcp, options)) {
                Cq.next(cq, "the client's \"done\"");         // the client wrote and read back meanwhile
                return buffer.segment().toArray(ValueLayout.JAVA_BYTE);
            }
        }
    }
    // end::write-read-server[]

    // tag::write-read-client[]
    /** WRITEs {@code data} (4096 bytes) into the server's buffer and READs it back; returns what came back. */
    static byte[] client(String host, int port, byte[] data) {
        try (Arena arena = Arena.ofShared(); Context ctx = Verbs.device(null).open()) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(16, null);
            MemoryRegion out = pd.registerMemory(ctx.allocateMemory(SIZE, arena), AccessFlags.LOCAL_WRITE, arena);
            MemoryRegion in = pd.registerMemory(ctx.allocateMemory(SIZE, arena), AccessFlags.LOCAL_WRITE, arena);
            out.segment().copyFrom(MemorySegment.ofArray(data));

            Exchange tcp = TcpExchange.client(host, port, TcpOptions.perftest());
            try (RcConnection c = RcConnector.connect(pd, tcp, RcOptions.defaults(cq))) {
                RemoteBuffer server = c.remoteBuffer();       // the address and rkey the server exposed

                c.qp().postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.RDMA_WRITE)
                        .flags(SendFlags.SIGNALED).sg(Sge.of(out)).rdma(server.address(), server.rkey()));
                Cq.next(cq, "the RDMA WRITE");                // acknowledged: the data is in the server's memory
                c.qp().postSend(new SendWorkRequest().wrId(3).opcode(WrOpcode.RDMA_READ)
                        .flags(SendFlags.SIGNALED).sg(Sge.of(in)).rdma(server.address(), server.rkey()));
                Cq.next(cq, "the RDMA READ");                 // the server's buffer, now in ours
                c.qp().postSend(new SendWorkRequest().wrId(4).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED));  // "done"
                Cq.next(cq, "the \"done\" SEND");
                return in.segment().toArray(ValueLayout.JAVA_BYTE);
            }
        }
    }
    // end::write-read-client[]

    private static String text(byte[] b) {
        return new String(b, 0, Math.min(48, b.length), StandardCharsets.US_ASCII) + "…";
    }
}
