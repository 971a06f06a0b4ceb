package org.jrdma.bootstrap;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import org.jrdma.soft.SoftDevice;
import org.jrdma.soft.SoftDeviceSpec;
import org.jrdma.verbs.Device;

/** Soft devices for end-to-end tests of the bootstrap. */
public final class SoftDevices {
    private SoftDevices() {
    }

    /**
     * A soft device on a free 127.79.x.y (UDP 4791 free there), so parallel test runs never clash.
     * Typed as a {@link Device}: org.jrdma.soft is no part of this module's API.
     */
    public static Device free(String name) throws Exception {
        int start = (int) (ProcessHandle.current().pid() % 200) * 250 + name.length();
        for (int i = 0; i < 1000; i++) {
            int n = (start + i * 7) % 60000;
            InetAddress addr = InetAddress.getByAddress(new byte[] {127, 79, (byte) (n / 250), (byte) (n % 250 + 1)});
            try (DatagramSocket _ = new DatagramSocket(new InetSocketAddress(addr, 4791))) {
                return new SoftDevice(new SoftDeviceSpec(name + "_" + n, addr, 65536, false));
            } catch (SocketException taken) {
                // next
            }
        }
        throw new IllegalStateException("no free 127.79.x.y");
    }
}
