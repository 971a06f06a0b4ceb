package org.jrdma.soft;

import java.net.Inet4Address;
import java.net.InetAddress;

/** IPv4 addresses as the ICRC writers of the wire tests take them. */
final class Ipv4 {
    private Ipv4() {
    }

    /** The address as a big-endian int; 0 for an IPv6 address. */
    static int of(InetAddress a) {
        if (!(a instanceof Inet4Address)) {
            return 0;
        }
        byte[] b = a.getAddress();
        return ((b[0] & 0xFF) << 24) | ((b[1] & 0xFF) << 16) | ((b[2] & 0xFF) << 8) | (b[3] & 0xFF);
    }
}
