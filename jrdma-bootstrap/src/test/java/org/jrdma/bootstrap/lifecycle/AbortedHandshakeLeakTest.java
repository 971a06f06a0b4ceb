package org.jrdma.bootstrap.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.jrdma.bootstrap.BootstrapException;
import org.jrdma.bootstrap.PeerClosedException;
import org.jrdma.bootstrap.RcConnector;
import org.jrdma.bootstrap.RcOptions;
import org.jrdma.bootstrap.tcp.TcpExchange;
import org.jrdma.bootstrap.tcp.TcpOptions;
import org.jrdma.bootstrap.tcp.TcpServerExchange;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.ProtectionDomain;
import org.junit.jupiter.api.Test;

/**
 * RELIABILITY-SECURITY REL-29, the aborted-handshake part (and OOB-14's "no leak"): set-ups that
 * fail after the QP was made — a peer that connects to the TCP server exchange, sends 3 bytes of
 * its message and hangs up, and an exchange that fails outright — leave no QP, socket, thread or
 * heap behind: {@link RcConnector} destroys the QP on the way out. CI runs 500 TCP and 10,000
 * in-memory aborts; {@code -Djrdma.errors.scale=10} runs 10^5 of the latter.
 */
class AbortedHandshakeLeakTest {
    private static final int SCALE = Integer.getInteger("jrdma.errors.scale", 1);

    @Test
    void rel29AbortedHandshakesLeaveNoQpSocketThreadOrHeap() throws Exception {
        try (Context ctx = ConnectCloseCyclesTest.device("rel29oob").open()) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(16, null);
            RcOptions options = RcOptions.defaults(cq);
            for (int i = 0; i < 20; i++) {
                abortOverTcp(pd, options);
                abortInMemory(pd, options);
            }
            long heap = heapAfterGc();
            int threads = ManagementFactory.getThreadMXBean().getThreadCount();
            long fds = fds();
            int tcp = 500 * SCALE;
            int inMemory = 10_000 * SCALE;
            long t0 = System.nanoTime();
            for (int i = 0; i < tcp; i++) {
                abortOverTcp(pd, options);
            }
            for (int i = 0; i < inMemory; i++) {
                abortInMemory(pd, options);
            }
            double s = (System.nanoTime() - t0) / 1e9;
            long heapAfter = heapAfterGc();
            System.out.printf("REL-29: %d TCP handshakes cut after 3 bytes and %d failed exchanges in %.1f s; heap after GC %+d KiB,"
                            + " threads %d -> %d, fds %d -> %d%n", tcp, inMemory, s, (heapAfter - heap) >> 10, threads,
                    ManagementFactory.getThreadMXBean().getThreadCount(), fds, fds());
            assertThat(heapAfter - heap).isLessThan(4L << 20);
            assertThat(ManagementFactory.getThreadMXBean().getThreadCount()).isLessThanOrEqualTo(threads);
            assertThat(fds()).isLessThanOrEqualTo(fds);
            cq.close();
            pd.close(); // refused (EBUSY) if any QP had been left behind
        }
    }

    private static void abortOverTcp(ProtectionDomain pd, RcOptions options) throws IOException {
        TcpServerExchange server = TcpExchange.server(InetAddress.getLoopbackAddress(), 0, TcpOptions.rcPingpong()).bind();
        try (Socket peer = new Socket()) {
            peer.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.localPort()));
            peer.getOutputStream().write(new byte[] {'0', '0', '0'});
            peer.shutdownOutput();
            assertThatThrownBy(() -> RcConnector.connect(pd, server, options)).isInstanceOf(BootstrapException.class);
        }
    }

    private static void abortInMemory(ProtectionDomain pd, RcOptions options) {
        assertThatThrownBy(() -> RcConnector.connect(pd, (local, listener) -> {
            throw new PeerClosedException("the peer went away", 0, 52);
        }, options)).isInstanceOf(PeerClosedException.class);
    }

    private static long heapAfterGc() {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            best = Math.min(best, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return best;
    }

    private static long fds() {
        try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            return s.count();
        } catch (IOException e) {
            return -1;
        }
    }
}
