package org.jrdma.tools;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Loopback addresses and ports for tests: a soft device on its own 127.78.x.y (UDP 4791 free
 * there) and ephemeral TCP ports, so tests clash neither with each other nor with a demo.
 */
public final class FreeLoopback {
    private static final AtomicInteger NEXT = new AtomicInteger((int) (ProcessHandle.current().pid() % 200) * 250);

    private FreeLoopback() {
    }

    /** {@code name=127.78.x.y} for JRDMA_SOFT_DEVICES, with UDP 4791 free on that address. */
    public static String deviceSpec(String name) throws Exception {
        for (int i = 0; i < 1000; i++) {
            int n = NEXT.getAndIncrement() % 60000;
            InetAddress a = InetAddress.getByAddress(new byte[] {127, 78, (byte) (n / 250), (byte) (n % 250 + 1)});
            try (DatagramSocket probe = new DatagramSocket(new InetSocketAddress(a, 4791))) {
                return name + "=" + a.getHostAddress();
            } catch (SocketException taken) {
                // try the next address
            }
        }
        throw new IllegalStateException("no free 127.78.x.y");
    }

    public static int tcpPort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
