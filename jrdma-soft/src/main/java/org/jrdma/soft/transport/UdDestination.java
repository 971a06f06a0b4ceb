package org.jrdma.soft.transport;

import org.jrdma.soft.net.RoceEndpoint;

/** Where a UD datagram goes: what a soft address handle resolves to. */
public interface UdDestination {
    /** The destination's address and UDP port, of the device's family (create_ah checks it). */
    RoceEndpoint endpoint();
}
