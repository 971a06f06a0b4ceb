package org.jrdma.examples;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.function.IntConsumer;
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
import org.jrdma.verbs.WrOpcode;

/**
 * One-sided RDMA: the server registers a 4096-byte buffer for remote WRITE and READ and tells
 * the client its address and rkey; the client WRITEs its data there and READs it back, and the
 * server's CPU takes no part in either. {@code WriteRead server [port]} /
 * {@code WriteRead client host [port]} (port 18515 by default).
 *
 * <p>The TCP exchange swaps only what the QPs need (rc_pingpong's LID, QPN, PSN and GID); the
 * buffer's address and rkey go as the connection's first SEND, as rping sends its
 * {@code struct rping_rdma_info} — so they never cross the socket, and reach only the QP the
 * server connected.
 */
public final class WriteRead {
    static final int SIZE = 4096;
    /** rping's struct rping_rdma_info: the buffer's address (8 bytes), rkey (4), size (4), in network order. */
    private static final int KEY_MESSAGE = 16;
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

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
            MemoryRegion buffer = pd.registerMemory(arena.allocate(SIZE, 8),
                    AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ, arena);
            MemoryRegion ctl = pd.registerMemory(arena.allocate(KEY_MESSAGE, 8), AccessFlags.LOCAL_WRITE, arena);

            TcpServerExchange tcp = TcpExchange.server(port, TcpOptions.rcPingpong()).bind();
            listening.accept(tcp.localPort());
            RcOptions options = RcOptions.defaults(cq)        // the QP lets its peer write and read
                    .withAccessFlags(AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ)
                    .onInit(qp -> qp.postRecv(new RecvWorkRequest().wrId(1)));  // for "done", which is empty
            try (RcConnection c = RcConnector.connect(pd, tcp, options)) {
                MemorySegment key = ctl.segment();            // the buffer's address and rkey, to the client
                key.set(U64, 0, buffer.addr());
                key.set(U32, 8, buffer.rkey());
                key.set(U32, 12, SIZE);
                c.qp().postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.SEND).sg(Sge.of(ctl)));  // unsignaled: "done" says it arrived
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
            MemoryRegion out = pd.registerMemory(arena.allocate(SIZE, 8), AccessFlags.LOCAL_WRITE, arena);
            MemoryRegion in = pd.registerMemory(arena.allocate(SIZE, 8), AccessFlags.LOCAL_WRITE, arena);
            MemoryRegion ctl = pd.registerMemory(arena.allocate(KEY_MESSAGE, 8), AccessFlags.LOCAL_WRITE, arena);
            out.segment().copyFrom(MemorySegment.ofArray(data));

            RcOptions options = RcOptions.defaults(cq)        // the server's first SEND: its address and rkey
                    .onInit(qp -> qp.postRecv(new RecvWorkRequest().wrId(1).sg(Sge.of(ctl))));
            try (RcConnection c = RcConnector.connect(pd, TcpExchange.client(host, port, TcpOptions.rcPingpong()), options)) {
                Cq.next(cq, "the server's address and rkey");
                long remoteAddr = ctl.segment().get(U64, 0);
                int rkey = ctl.segment().get(U32, 8);

                c.qp().postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.RDMA_WRITE)
                        .flags(SendFlags.SIGNALED).sg(Sge.of(out)).rdma(remoteAddr, rkey));
                Cq.next(cq, "the RDMA WRITE");                // acknowledged: the data is in the server's memory
                c.qp().postSend(new SendWorkRequest().wrId(3).opcode(WrOpcode.RDMA_READ)
                        .flags(SendFlags.SIGNALED).sg(Sge.of(in)).rdma(remoteAddr, rkey));
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
