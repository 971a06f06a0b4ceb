package org.jrdma.bench.baseline;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Set;

/**
 * Java NIO TCP ping-pong, a baseline of send_lat and write_lat: the client sends
 * {@code --size} bytes, the server sends them back, and the client times each round trip.
 * TCP_NODELAY on both ends, non-blocking channels busy-polled, direct buffers, the round
 * trips of the warm-up not counted. The client prints the one-way latency (half the round
 * trip) as perftest does.
 *
 * <pre>
 * server [--port P] --size S --iters N [--warmup W]
 * client --port P [--host H] --size S --iters N [--warmup W]
 * </pre>
 */
public final class TcpPingPong {
    static final String NAME = "tcp_pingpong";
    private static final Set<String> KEYS = Set.of("host", "port", "size", "iters", "warmup");

    private TcpPingPong() {
    }

    public static void main(String[] args) {
        BaselineProcess.run(NAME, args, () -> {
            BaselineArgs a = BaselineArgs.parse(args, KEYS);
            int size = a.positiveInt("size");
            int iters = a.positiveInt("iters");
            long warmup = a.nonNegativeLong("warmup", 0);
            if (a.isServer()) {
                echo(a, size, iters, warmup);
            } else {
                ping(a, size, iters, warmup);
            }
        });
    }

    private static void echo(BaselineArgs a, int size, int iters, long warmup) throws Exception {
        SocketChannel ch;
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), (int) a.nonNegativeLong("port", 0)), 1);
            BaselineProcess.ready(((InetSocketAddress) server.getLocalAddress()).getPort());
            ch = server.accept();
        }
        try (ch) {
            prepare(ch);
            ByteBuffer buf = ByteBuffer.allocateDirect(size);
            long allocBefore = 0;
            long echoed = 0;
            for (long i = 0; i < warmup + iters; i++) {
                if (i == warmup) {
                    allocBefore = AllocCounter.now();
                }
                buf.clear();
                if (!SpinIo.readFully(ch, buf)) {
                    throw new IllegalStateException("client closed after " + i + " of " + (warmup + iters) + " round trips");
                }
                buf.flip();
                SpinIo.writeFully(ch, buf);
                echoed++;
            }
            long allocAfter = AllocCounter.now();
            BaselineProcess.result(new JsonLine().put("baseline", NAME).put("role", "server").put("size", size)
                    .put("echoed", echoed).put("allocBytesPerOp", AllocCounter.perOp(allocBefore, allocAfter, iters)));
        }
    }

    private static void ping(BaselineArgs a, int size, int iters, long warmup) throws Exception {
        InetSocketAddress peer = new InetSocketAddress(a.string("host", "127.0.0.1"), (int) a.nonNegativeLong("port", 0));
        try (SocketChannel ch = SocketChannel.open(peer)) {
            prepare(ch);
            BaselineProcess.started();
            ByteBuffer buf = ByteBuffer.allocateDirect(size);
            long[] rtt = new long[iters];
            long allocBefore = 0;
            for (long i = 0; i < warmup + iters; i++) {
                if (i == warmup) {
                    allocBefore = AllocCounter.now();
                }
                long t0 = System.nanoTime();
                buf.clear();
                SpinIo.writeFully(ch, buf);
                buf.clear();
                if (!SpinIo.readFully(ch, buf)) {
                    throw new IllegalStateException("server closed after " + i + " round trips");
                }
                long t1 = System.nanoTime();
                if (i >= warmup) {
                    rtt[(int) (i - warmup)] = t1 - t0;
                }
            }
            long allocAfter = AllocCounter.now();
            BaselineProcess.result(HalfRtt.summarize(rtt, new JsonLine().put("baseline", NAME).put("role", "client")
                    .put("size", size).put("iterations", iters))
                    .put("allocBytesPerOp", AllocCounter.perOp(allocBefore, allocAfter, iters)));
        }
    }

    private static void prepare(SocketChannel ch) throws Exception {
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        ch.configureBlocking(false);
    }
}
