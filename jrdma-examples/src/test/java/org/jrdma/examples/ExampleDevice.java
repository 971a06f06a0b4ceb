package org.jrdma.examples;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.UnknownHostException;

/**
 * The one soft device the examples' tests use, on a loopback address of its own (127.80.x.y,
 * UDP 4791 probed free there), so that they clash neither with a demo on 127.0.0.1 nor with
 * other modules' tests (127.78, 127.79). It is named the way a user names one, with the
 * {@code jrdma.soft.devices} property ({@code JRDMA_SOFT_DEVICES}); set once for the test JVM
 * and never changed, because the connection manager keeps a device open once used.
 */
final class ExampleDevice {
    private static InetAddress address;
    /** Where the search for a free address goes on: spread by pid, so concurrent builds seldom meet. */
    private static int next = (int) (ProcessHandle.current().pid() % 240) * 250;

    private ExampleDevice() {
    }

    /** Sets the property on first use; returns the device's address. */
    static synchronized InetAddress address() {
        if (address == null) {
            address = free();
            System.setProperty("jrdma.soft.devices", "examples=" + address.getHostAddress());
        }
        return address;
    }

    /** A 127.80.x.y with UDP 4791 free (never this JVM's device), for a child JVM's device. */
    static synchronized InetAddress free() {
        for (int i = 0; i < 60_000; i++) {
            InetAddress a = ip(next++ % 60_000);
            if (a.equals(address)) {
                continue;
            }
            try (DatagramSocket _ = new DatagramSocket(new InetSocketAddress(a, 4791))) {
                return a;
            } catch (SocketException taken) {
                // another JVM's device is there: try the next address
            }
        }
        throw new IllegalStateException("no 127.80.x.y address with UDP 4791 free");
    }

    private static InetAddress ip(int n) {
        try {
            return InetAddress.getByAddress(new byte[] {127, 80, (byte) (n / 250), (byte) (n % 250 + 1)});
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
