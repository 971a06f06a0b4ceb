package org.jrdma.soft.stage;

import java.net.InetSocketAddress;

/** Where a UD datagram goes: what a soft address handle resolves to. */
public interface UdDestination {
    InetSocketAddress destination();

    int destinationIpv4();

    /** The destination's 16-byte IPv6 address (do not modify), or null when it is IPv4. */
    default byte[] destinationIpv6() {
        return null;
    }
}
