package org.jrdma.bench.baseline;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.Set;

/**
 * Java NIO UDP ping-pong, the baseline of send_lat and write_lat (the soft provider's own
 * transport is UDP, so this is the floor it builds on): the client sends one datagram of
 * {@code --size} bytes, the server sends it back. Connected, non-blocking channels,
 * busy-polled, direct buffers; read/write on connected channels so no address is allocated
 * per datagram. The client prints the one-way latency (half the round trip). With
 * {@code --blocking true} (the baseline of perf's {@code -e}, which sleeps on CQ events) both
 * ends use blocking channels and sleep in the kernel until each datagram arrives: no spinning
 * (and no reply deadline: a lost datagram leaves the pair to the runner's).
 *
 * <pre>
 * server [--port P] --size S --iters N [--warmup W] [--blocking true]
 * client --port P [--host H] --size S --iters N [--warmup W] [--blocking true]
 * </pre>
 */
public final class UdpPingPong {
    static final String NAME = "udp_pingpong";
    private static final Set<String> KEYS = Set.of("host", "port", "size", "iters", "warmup", "blocking");
    /** A datagram lost on loopback would otherwise spin the client forever. */
    private static final long REPLY_DEADLINE_NANOS = 2_000_000_000L;

    private UdpPingPong() {
    }

    public static void main(String[] args) {
        BaselineProcess.run(NAME, args, () -> {
            BaselineArgs a = BaselineArgs.parse(args, KEYS);
            int size = a.positiveInt("size");
            int iters = a.positiveInt("iters");
            long warmup = a.nonNegativeLong("warmup", 0);
            boolean blocking = a.bool("blocking", false);
            if (a.isServer()) {
                echo(a, size, iters, warmup, blocking);
            } else {
                ping(a, size, iters, warmup, blocking);
            }
        });
    }

    private static void echo(BaselineArgs a, int size, int iters, long warmup, boolean blocking) throws Exception {
        try (DatagramChannel ch = DatagramChannel.open(StandardProtocolFamily.INET)) {
            ch.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), (int) a.nonNegativeLong("port", 0)));
            ch.configureBlocking(blocking);
            BaselineProcess.ready(((InetSocketAddress) ch.getLocalAddress()).getPort());
            ByteBuffer buf = ByteBuffer.allocateDirect(size + 1);
            buf.limit(size + 1);
            SocketAddress client;
            while ((client = ch.receive(buf)) == null) {
                Thread.onSpinWait();
            }
            ch.connect(client);
            long allocBefore = 0;
            for (long i = 0; i < warmup + iters; i++) {
                if (i > 0) {
                    buf.clear();
                    while (ch.read(buf) == 0) {
                        Thread.onSpinWait();
                    }
                }
                if (i == warmup) {
                    allocBefore = AllocCounter.now();
                }
                checkLength(buf.position(), size);
                buf.flip();
                while (ch.write(buf) == 0) {
                    Thread.onSpinWait();
                }
            }
            long allocAfter = AllocCounter.now();
            BaselineProcess.result(new JsonLine().put("baseline", NAME).put("role", "server").put("size", size)
                    .put("echoed", warmup + iters).put("allocBytesPerOp", AllocCounter.perOp(allocBefore, allocAfter, iters)));
        }
    }

    private static void ping(BaselineArgs a, int size, int iters, long warmup, boolean blocking) throws Exception {
        InetSocketAddress server = new InetSocketAddress(a.string("host", "127.0.0.1"), (int) a.nonNegativeLong("port", 0));
        try (DatagramChannel ch = DatagramChannel.open(StandardProtocolFamily.INET)) {
            ch.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            ch.connect(server);
            ch.configureBlocking(blocking);
            BaselineProcess.started();
            ByteBuffer out = ByteBuffer.allocateDirect(size);
            ByteBuffer in = ByteBuffer.allocateDirect(size + 1); // one spare byte shows a datagram too long
            long[] rtt = new long[iters];
            long allocBefore = 0;
            for (long i = 0; i < warmup + iters; i++) {
                if (i == warmup) {
                    allocBefore = AllocCounter.now();
                }
                long t0 = System.nanoTime();
                out.clear();
                while (ch.write(out) == 0) {
                    Thread.onSpinWait();
                }
                in.clear();
                while (ch.read(in) == 0) { // blocking: returns with the datagram
                    if (System.nanoTime() - t0 > REPLY_DEADLINE_NANOS) {
                        throw new IllegalStateException("no reply to datagram " + i + " within 2 s (lost?)");
                    }
                    Thread.onSpinWait();
                }
                long t1 = System.nanoTime();
                checkLength(in.position(), size);
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

    private static void checkLength(int received, int size) {
        if (received != size) {
            throw new IllegalStateException("datagram of " + received + " bytes, expected " + size);
        }
    }
}
