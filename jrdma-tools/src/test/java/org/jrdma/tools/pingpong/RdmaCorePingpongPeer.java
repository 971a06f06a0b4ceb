package org.jrdma.tools.pingpong;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.bootstrap.Exchange;
import org.jrdma.bootstrap.RcConnection;
import org.jrdma.bootstrap.RcConnector;
import org.jrdma.bootstrap.RcOptions;
import org.jrdma.bootstrap.tcp.TcpExchange;
import org.jrdma.bootstrap.tcp.TcpOptions;
import org.jrdma.tools.rc.EndpointConfig;
import org.jrdma.tools.rc.PingpongMessage;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.Verbs;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;

/**
 * rdma-core's ibv_{rc,uc,ud}_pingpong (libibverbs/examples) as a test's peer, in plain verbs on
 * its own soft device, with its data path as rdma-core writes it: one buffer, memset to 0x7b,
 * that every receive targets and every send sends (UD: the 40-byte GRH area first, the message
 * after it), so its server sends back whatever it last received; with {@code -c} its client sets
 * the byte at every page start (4096 here) to 0 before its first send, and only its server
 * checks, once after the loop, that each page start is still 0 ("invalid data in page N", and
 * it still exits 0). The exchange is rc_pingpong's in rc_pingpong's order.
 *
 * <p>{@link Fill} replaces what goes into the buffer before each send, so the same peer can
 * play a jrdma end that corrupts one byte.
 */
final class RdmaCorePingpongPeer {
    private static final long RECV_WRID = 1;
    private static final long SEND_WRID = 2;
    private static final int RX_DEPTH = 16;

    /** Writes the {@code size} bytes of send number {@code i} at {@code message}, before it is posted. */
    @FunctionalInterface
    interface Fill {
        void beforeSend(MemorySegment message, int size, long i);
    }

    /** rc_pingpong -c's client: page-start zeros in the 0x7b buffer before the first send, then nothing (it echoes). */
    static final Fill RC_PINGPONG_CHK = (m, size, i) -> {
        if (i == 0) {
            for (int p = 0; p < size; p += PingpongMessage.PAGE_BYTES) {
                m.set(ValueLayout.JAVA_BYTE, p, (byte) 0);
            }
        }
    };

    /** rc_pingpong without -c: the buffer as it is. */
    static final Fill RC_PINGPONG = (m, size, i) -> { };

    /** What the peer saw: the server's page check (empty for a client or without -c) and the counts. */
    record Result(List<Integer> invalidPages, int sends, int recvs) {
    }

    private final String device;
    private final QpType type;
    private final int size;
    private final int iters;
    private final Duration timeout;

    /** {@code timeout} bounds the exchange and the wait for each completion. */
    RdmaCorePingpongPeer(String device, QpType type, int size, int iters, Duration timeout) {
        this.device = device;
        this.type = type;
        this.size = size;
        this.iters = iters;
        this.timeout = timeout;
    }

    /** {@code ibv_X_pingpong -c -p PORT}: waits for one client, then echoes; checks the page starts at the end. */
    Result server(int port) {
        return run(new PingpongServerExchange(port, timeout), false, RC_PINGPONG, true);
    }

    /** {@code ibv_X_pingpong [-c] -p PORT HOST} with {@code fill} deciding the bytes it sends. */
    Result client(String host, int port, Fill fill) {
        return run(TcpExchange.client(host, port, TcpOptions.rcPingpong().withTimeout(timeout)), true, fill, false);
    }

    /** A server that sends {@code fill}'s bytes instead of echoing (no page check). */
    Result server(int port, Fill fill) {
        return run(new PingpongServerExchange(port, timeout), false, fill, false);
    }

    private Result run(Exchange exchange, boolean client, Fill fill, boolean checkPages) {
        int grh = type == QpType.UD ? EndpointConfig.UD_GRH : 0;
        try (Context ctx = Verbs.device(device).open(); Arena arena = Arena.ofShared()) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(RX_DEPTH + 1, null);
            MemorySegment buf = arena.allocate(size + grh, PingpongMessage.PAGE_BYTES);
            buf.fill((byte) 0x7b);
            MemoryRegion mr = pd.registerMemory(buf, AccessFlags.LOCAL_WRITE);
            Sge recvSge = new Sge(mr.addr(), size + grh, mr.lkey());
            RecvWorkRequest recv = new RecvWorkRequest().wrId(RECV_WRID).sg(recvSge);
            RcOptions options = RcOptions.defaults(cq).withQpType(type).withMtu(Mtu.MTU_1024)
                    .withCap(new QpCap(1, RX_DEPTH, 1, 1, 0))
                    .onInit(qp -> postRecvs(qp, recv, RX_DEPTH));
            try (RcConnection c = RcConnector.connect(pd, exchange, options)) {
                SendWorkRequest send = new SendWorkRequest().wrId(SEND_WRID).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED)
                        .sg(new Sge(mr.addr() + grh, size, mr.lkey()));
                if (c.peerAh() != null) {
                    send.ud(c.peerAh(), c.remote().qpn(), RcOptions.PINGPONG_QKEY);
                }
                MemorySegment message = buf.asSlice(grh, size);
                int routs = RX_DEPTH;
                int scnt = 0;
                int rcnt = 0;
                long pending = RECV_WRID;
                if (client) {
                    fill.beforeSend(message, size, 0);
                    c.qp().postSend(send);
                    pending |= SEND_WRID;
                }
                WorkCompletion[] wc = {new WorkCompletion()};
                while (rcnt < iters || scnt < iters) {
                    poll(cq, wc);
                    if (wc[0].status != WcStatus.SUCCESS) {
                        throw new IllegalStateException("Failed status " + wc[0].status.str() + " for wr_id " + wc[0].wrId);
                    }
                    if (wc[0].opcode == WcOpcode.RECV) {
                        if (--routs <= 1) {
                            postRecvs(c.qp(), recv, RX_DEPTH - routs);
                            routs = RX_DEPTH;
                        }
                        rcnt++;
                    } else {
                        scnt++;
                    }
                    pending &= ~wc[0].wrId;
                    if (scnt < iters && pending == 0) {
                        fill.beforeSend(message, size, scnt);
                        c.qp().postSend(send);
                        pending = RECV_WRID | SEND_WRID;
                    }
                }
                List<Integer> invalid = new ArrayList<>();
                if (checkPages) {
                    for (int p = 0; p < size; p += PingpongMessage.PAGE_BYTES) {
                        if (message.get(ValueLayout.JAVA_BYTE, p) != 0) {
                            invalid.add(p / PingpongMessage.PAGE_BYTES);
                        }
                    }
                }
                return new Result(invalid, scnt, rcnt);
            }
        }
    }

    private static void postRecvs(QueuePair qp, RecvWorkRequest recv, int n) {
        for (int i = 0; i < n; i++) {
            qp.postRecv(recv);
        }
    }

    private void poll(CompletionQueue cq, WorkCompletion[] wc) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (cq.poll(wc) == 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the rdma-core-like peer got no completion within " + timeout);
            }
            Thread.onSpinWait();
        }
    }
}
