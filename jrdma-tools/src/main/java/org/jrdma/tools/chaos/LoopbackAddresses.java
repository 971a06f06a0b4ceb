package org.jrdma.tools.chaos;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.UnknownHostException;

/** Loopback addresses whose UDP 4791 is free, for the chaos run's two devices (127.66.x.y). */
final class LoopbackAddresses {
    private static int next = (int) (ProcessHandle.current().pid() % 200) * 250;

    private LoopbackAddresses() {
    }

    static synchronized InetAddress free() {
        for (int attempt = 0; attempt < 60000; attempt++) {
            int n = next++ % 60000;
            InetAddress a;
            try {
                a = InetAddress.getByAddress(new byte[] {127, 66, (byte) (n / 250), (byte) (n % 250 + 1)});
            } catch (UnknownHostException e) {
                throw new IllegalStateException(e);
            }
            try (DatagramSocket probe = new DatagramSocket(new InetSocketAddress(a, 4791))) {
                return a;
            } catch (SocketException taken) {
                // another process has it: try the next
            }
        }
        throw new IllegalStateException("no free 127.66.x.y address with UDP 4791 free");
    }
}
