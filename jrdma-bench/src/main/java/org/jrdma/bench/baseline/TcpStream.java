package org.jrdma.bench.baseline;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Set;

/**
 * Java NIO TCP streaming, the baseline of write_bw, send_bw and read_bw: the client writes
 * messages of {@code --size} bytes, the server receives and counts them, and the figure is
 * taken at the receiver (bytes after the warm-up ÷ the time from the end of the warm-up to
 * the last byte). Both ends busy-poll non-blocking channels with direct buffers; the
 * receiver drains with reads of max(size, 64 KiB), as a streaming reader would; Nagle stays
 * on (the plain socket a Java program gets).
 *
 * <pre>
 * server [--port P] --size S (--count N [--warmup W] | --seconds D [--warmup-seconds D0])
 * client --port P [--host H] --size S (the same run length)
 * </pre>
 */
public final class TcpStream {
    static final String NAME = "tcp_stream";
    private static final Set<String> KEYS = Set.of("host", "port", "size", "count", "warmup", "seconds", "warmup-seconds");
    private static final int MIN_READ_BYTES = 64 * 1024;

    private TcpStream() {
    }

    public static void main(String[] args) {
        BaselineProcess.run(NAME, args, () -> {
            BaselineArgs a = BaselineArgs.parse(args, KEYS);
            int size = a.positiveInt("size");
            RunLength run = RunLength.from(a);
            if (a.isServer()) {
                receive(a, size, run);
            } else {
                send(a, size, run);
            }
        });
    }

    private static void receive(BaselineArgs a, int size, RunLength run) throws Exception {
        SocketChannel ch;
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), (int) a.nonNegativeLong("port", 0)), 1);
            BaselineProcess.ready(((InetSocketAddress) server.getLocalAddress()).getPort());
            ch = server.accept();
        }
        try (ch) {
            ch.configureBlocking(false);
            ByteBuffer buf = ByteBuffer.allocateDirect(Math.max(size, MIN_READ_BYTES));
            long warmupBytes = run.warmupCount() * size;
            long totalBytes = (run.warmupCount() + run.count()) * size;
            long received = 0;
            long first = 0;
            long start = 0;
            long bytesAtStart = -1;
            long last = 0;
            long allocBefore = 0;
            while (run.timed() || received < totalBytes) {
                buf.clear();
                int n = ch.read(buf);
                if (n < 0) {
                    break;
                }
                if (n == 0) {
                    Thread.onSpinWait();
                    continue;
                }
                received += n;
                last = System.nanoTime();
                if (first == 0) {
                    first = last;
                }
                if (bytesAtStart < 0 && (run.timed() ? last - first >= run.warmupNanos() : received >= warmupBytes)) {
                    start = last;
                    bytesAtStart = received;
                    allocBefore = AllocCounter.now();
                }
            }
            long allocAfter = AllocCounter.now();
            if (!run.timed() && received < totalBytes) {
                throw new IllegalStateException("stream ended after " + received + " of " + totalBytes + " bytes");
            }
            long bytes = received - bytesAtStart;
            double seconds = (last - start) / 1e9;
            if (bytesAtStart < 0 || bytes <= 0 || seconds <= 0) {
                throw new IllegalStateException("nothing measured after the warm-up (" + received + " bytes in all): run longer");
            }
            BaselineProcess.result(new JsonLine().put("baseline", NAME).put("role", "receiver").put("size", size)
                    .put("bytes", bytes).put("seconds", seconds)
                    .put("mibPerSec", bytes / seconds / (1 << 20))
                    .put("msgRateMpps", (double) bytes / size / seconds / 1e6)
                    .put("allocBytesPerOp", AllocCounter.perOp(allocBefore, allocAfter, bytes / size)));
        }
    }

    private static void send(BaselineArgs a, int size, RunLength run) throws Exception {
        InetSocketAddress peer = new InetSocketAddress(a.string("host", "127.0.0.1"), (int) a.nonNegativeLong("port", 0));
        try (SocketChannel ch = SocketChannel.open(peer)) {
            ch.configureBlocking(false);
            ByteBuffer buf = ByteBuffer.allocateDirect(size);
            for (int i = 0; i < size; i++) {
                buf.put(i, (byte) i);
            }
            BaselineProcess.started();
            long warmupEnd = System.nanoTime() + run.warmupNanos();
            for (long i = 0; run.timed() ? System.nanoTime() < warmupEnd : i < run.warmupCount(); i++) {
                writeMessage(ch, buf);
            }
            long start = System.nanoTime();
            long allocBefore = AllocCounter.now();
            long end = start + run.nanos();
            long measured = 0;
            while (run.timed() ? System.nanoTime() < end : measured < run.count()) {
                writeMessage(ch, buf);
                measured++;
            }
            long allocAfter = AllocCounter.now();
            double seconds = (System.nanoTime() - start) / 1e9;
            BaselineProcess.result(new JsonLine().put("baseline", NAME).put("role", "sender").put("size", size)
                    .put("messages", measured).put("seconds", seconds)
                    .put("mibPerSec", (double) measured * size / seconds / (1 << 20))
                    .put("allocBytesPerOp", AllocCounter.perOp(allocBefore, allocAfter, measured)));
        }
    }

    private static void writeMessage(SocketChannel ch, ByteBuffer buf) throws IOException {
        buf.clear();
        SpinIo.writeFully(ch, buf);
    }
}
