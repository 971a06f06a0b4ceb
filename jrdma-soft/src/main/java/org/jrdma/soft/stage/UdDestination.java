package org.jrdma.soft.stage;

import java.net.InetSocketAddress;

/** Where a UD datagram goes: what a soft address handle resolves to. */
public interface UdDestination {
    InetSocketAddress destination();

    int destinationIpv4();
}
