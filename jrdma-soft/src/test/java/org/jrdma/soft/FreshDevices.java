package org.jrdma.soft;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.atomic.AtomicInteger;
import org.jrdma.soft.engine.SoftHca;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;

/**
 * Soft devices for tests on their own loopback addresses (127.77.x.y), so tests never clash
 * with each other, with a demo running on 127.0.0.1, or with another checkout's tests.
 */
public final class FreshDevices {
    private static final AtomicInteger NEXT = new AtomicInteger((int) (ProcessHandle.current().pid() % 200) * 250);

    private FreshDevices() {
    }

    /** A device bound to a free 127.77.x.y address (tries the next one while taken). */
    public static SoftDevice fresh(String name) {
        return fresh(name, SoftOptions.defaults());
    }

    public static SoftDevice fresh(String name, SoftOptions options) {
        for (int attempt = 0; attempt < 1000; attempt++) {
            int n = NEXT.getAndIncrement() % 60000;
            InetAddress a = address(n);
            SoftDevice d = new SoftDevice(new SoftDeviceSpec(name + "_" + n, a, 65536, false), options);
            try {
                d.open().close(); // probe: binds and releases
                return d;
            } catch (VerbsException e) {
                if (e.errno() != Errno.EADDRINUSE) {
                    throw e;
                }
            }
        }
        throw new IllegalStateException("no free 127.77.x.y address");
    }

    private static InetAddress address(int n) {
        try {
            return InetAddress.getByAddress(new byte[] {127, 77, (byte) (n / 250), (byte) (n % 250 + 1)});
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The engine side of a soft context, for tests outside this package that step it by hand. */
    public static SoftHca hca(org.jrdma.verbs.Context ctx) {
        return ((SoftContext) ctx).hca();
    }
}
