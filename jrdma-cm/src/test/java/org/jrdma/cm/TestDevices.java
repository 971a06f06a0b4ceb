package org.jrdma.cm;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.atomic.AtomicInteger;
import org.jrdma.soft.SoftDevice;
import org.jrdma.soft.SoftDeviceSpec;
import org.jrdma.soft.SoftOptions;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;

/** Soft devices for CM tests on their own loopback addresses (127.79.x.y), each probed free. */
final class TestDevices {
    private static final AtomicInteger NEXT = new AtomicInteger((int) (ProcessHandle.current().pid() % 200) * 250);

    private TestDevices() {
    }

    static SoftDevice fresh(String name) {
        return fresh(name, SoftOptions.defaults());
    }

    static SoftDevice fresh(String name, SoftOptions options) {
        for (int attempt = 0; attempt < 1000; attempt++) {
            int n = NEXT.getAndIncrement() % 60000;
            InetAddress a = address(n);
            SoftDevice d = new SoftDevice(new SoftDeviceSpec(name + "_" + n, a, 65536, false), options);
            try {
                d.open().close();
                return d;
            } catch (VerbsException e) {
                if (e.errno() != Errno.EADDRINUSE) {
                    throw e;
                }
            }
        }
        throw new IllegalStateException("no free 127.79.x.y address");
    }

    private static SoftDevice ipv6Loopback;

    /**
     * The one soft device on [::1]:4791 for this JVM, shared: the CM keeps a device's context
     * open once used, so a second device on ::1 would find the port taken. Skips the test
     * (assumption) where ::1 is missing or another process holds [::1]:4791.
     */
    static synchronized SoftDevice ipv6Loopback() {
        if (ipv6Loopback == null) {
            SoftDevice d;
            try {
                d = new SoftDevice(new SoftDeviceSpec("cm_v6", InetAddress.getByName("::1"), 65536, false),
                        SoftOptions.defaults());
                d.open().close();
            } catch (UnknownHostException e) {
                throw new IllegalStateException(e);
            } catch (VerbsException e) {
                org.junit.jupiter.api.Assumptions.assumeTrue(e.errno() != Errno.EADDRINUSE && e.errno() != Errno.EADDRNOTAVAIL,
                        "[::1]:4791 unavailable: " + e.getMessage());
                throw e;
            }
            ipv6Loopback = d;
        }
        return ipv6Loopback;
    }

    static InetAddress address(int n) {
        try {
            return InetAddress.getByAddress(new byte[] {127, 79, (byte) (n / 250), (byte) (n % 250 + 1)});
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
