package org.jrdma.examples;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.IntConsumer;
import org.jrdma.cm.CmEvent;
import org.jrdma.cm.CmEventType;
import org.jrdma.cm.CmId;
import org.jrdma.cm.ConnParam;
import org.jrdma.cm.EventChannel;
import org.jrdma.cm.wire.PortSpace;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WrOpcode;

/**
 * The connection manager instead of any out-of-band channel: no TCP socket at all. The client
 * resolves the server's address and route, and REQ → REP → RTU (MADs on each device's QP1)
 * carry the QPs to RTS, with a greeting of the client's as the REQ's private data. Then the
 * client SENDs a message, the server RECVs it, and the client disconnects (DREQ → DREP).
 * {@code CmSendRecv server [port]} / {@code CmSendRecv client host [port]} (port 7471 by default,
 * librdmacm's rdma_server and rdma_client's; the host is the server's device address, e.g. 127.0.0.1).
 */
public final class CmSendRecv {
    /** librdmacm's examples' port (rdma_server.c, rdma_client.c). */
    static final int DEFAULT_PORT = 7471;
    private static final int SIZE = 256;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    /** What the server got: the REQ's private data (up to its first zero) and the message SENT to it. */
    record Received(String greeting, String message) {
    }

    private CmSendRecv() {
    }

    public static void main(String[] args) {
        Args a = Args.parse("CmSendRecv", args, DEFAULT_PORT);
        if (a.isServer()) {
            Received r = server(a.port(), port -> System.out.println("CmSendRecv: listening on rdma_cm port " + port));
            System.out.println("CmSendRecv server: greeting \"" + r.greeting() + "\", message \"" + r.message() + "\"");
        } else {
            client(a.host(), a.port(), "hello", "sent by RDMA SEND over a connection the CM made");
            System.out.println("CmSendRecv client: sent, and disconnected");
        }
    }

    // tag::cm-client[]
    /** Connects to the server's rdma_cm port with {@code greeting} in the REQ, SENDs {@code message}, disconnects. */
    static void client(String host, int port, String greeting, String message) {
        try (EventChannel ch = EventChannel.create(); CmId id = CmId.create(ch, PortSpace.TCP, null)) {
            id.resolveAddr(null, new InetSocketAddress(host, port), TIMEOUT);       // picks the local device
            ch.getEvent(CmEventType.ADDR_RESOLVED, TIMEOUT).ack();
            id.resolveRoute(TIMEOUT);
            ch.getEvent(CmEventType.ROUTE_RESOLVED, TIMEOUT).ack();
            try (ProtectionDomain pd = id.verbs().allocPd(); CompletionQueue cq = id.verbs().createCq(16, null);
                    Arena arena = Arena.ofShared()) {
                MemoryRegion mr = pd.registerMemory(arena.allocate(SIZE), AccessFlags.LOCAL_WRITE, arena);
                id.createQp(pd, new QpInitAttr().qpType(QpType.RC).cq(cq));        // the QP is in INIT
                try {
                    id.connect(ConnParam.withPrivateData(greeting.getBytes(StandardCharsets.UTF_8)));  // REQ (≤ 56 bytes of yours)
                    ch.getEvent(CmEventType.ESTABLISHED, TIMEOUT).ack();            // REP came, RTU went: the QP is in RTS
                    byte[] text = message.getBytes(StandardCharsets.UTF_8);
                    MemorySegment.copy(text, 0, mr.segment(), ValueLayout.JAVA_BYTE, 0, text.length);
                    id.qp().postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED)
                            .sg(Sge.of(mr, 0, text.length)));
                    Cq.next(cq, "the SEND");
                    id.disconnect();                                                // DREQ
                    ch.getEvent(CmEventType.DISCONNECTED, TIMEOUT).ack();           // the server's DREP
                } finally {
                    id.destroyQp();                                                 // before its CQ and PD go
                }
            }
        }
    }
    // end::cm-client[]

    /** Listens on every soft device's address at {@code port}, accepts one client, returns what it sent. */
    static Received server(int port, IntConsumer listening) {
        try (EventChannel ch = EventChannel.create(); CmId listener = CmId.create(ch, PortSpace.TCP, null)) {
            listener.bindAddr(new InetSocketAddress(port));          // 0.0.0.0; port 0 picks a free port
            listener.listen(1);
            listening.accept(listener.port());
            CmEvent request = ch.getEvent(CmEventType.CONNECT_REQUEST, TIMEOUT);
            String greeting = upToZero(request.privateData());       // the REQ's private data, zero filled to 56 bytes
            try (CmId id = request.id()) {                           // the connection's own id
                request.ack();
                try (ProtectionDomain pd = id.verbs().allocPd(); CompletionQueue cq = id.verbs().createCq(16, null);
                        Arena arena = Arena.ofShared()) {
                    MemoryRegion mr = pd.registerMemory(arena.allocate(SIZE), AccessFlags.LOCAL_WRITE, arena);
                    id.createQp(pd, new QpInitAttr().qpType(QpType.RC).cq(cq));
                    try {
                        id.qp().postRecv(new RecvWorkRequest().wrId(1).sg(Sge.of(mr)));   // before the client can send
                        id.accept(ConnParam.defaults());                     // REP
                        ch.getEvent(CmEventType.ESTABLISHED, TIMEOUT).ack(); // the client's RTU
                        var wc = Cq.next(cq, "the client's message");
                        if (wc.opcode != WcOpcode.RECV) {
                            throw new IllegalStateException("expected a RECV, got " + wc);
                        }
                        String message = new String(mr.segment().asSlice(0, wc.byteLen).toArray(ValueLayout.JAVA_BYTE),
                                StandardCharsets.UTF_8);
                        ch.getEvent(CmEventType.DISCONNECTED, TIMEOUT).ack(); // the client's DREQ
                        id.disconnect();                                      // DREP
                        return new Received(greeting, message);
                    } finally {
                        id.destroyQp();
                    }
                }
            }
        }
    }

    private static String upToZero(byte[] data) {
        int n = 0;
        while (n < data.length && data[n] != 0) {
            n++;
        }
        return new String(data, 0, n, StandardCharsets.UTF_8);
    }
}
