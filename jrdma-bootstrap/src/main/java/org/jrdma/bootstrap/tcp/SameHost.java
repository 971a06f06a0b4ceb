package org.jrdma.bootstrap.tcp;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Objects;

/**
 * Whether an address is this host's: what a TCP exchange sees of its peer (the client, the
 * address it connects to; the server, the address the connection came from) says whether the
 * peer is a process on this host — which the tools use to pick the shared-memory provider in
 * auto. An address is this host's when it is a loopback address ({@code 127.0.0.0/8},
 * {@code ::1}), the wildcard ({@code 0.0.0.0}, {@code ::}, which a connect reaches this host by),
 * or bound to one of this host's interfaces, up or not. A host that cannot list its interfaces
 * answers for loopback and the wildcard only: "not local" only costs the faster transport.
 */
public final class SameHost {
    private SameHost() {
    }

    /**
     * Whether {@code address} is this host's.
     *
     * @param address an address, as resolved or as a socket reports its peer
     * @return true when a connection to or from it stays on this host
     */
    public static boolean isLocal(InetAddress address) {
        Objects.requireNonNull(address, "address");
        if (address.isLoopbackAddress() || address.isAnyLocalAddress()) {
            return true;
        }
        try {
            // a link-local IPv6 address carries its scope; the interface lookup matches it as given
            return NetworkInterface.getByInetAddress(address) != null;
        } catch (SocketException e) {
            return false;
        }
    }

    /**
     * Whether every address a host name resolved to is this host's: a client may connect to any
     * of them, so a name is local only when all are (a name with one remote address is not).
     *
     * @param addresses the addresses, as {@link HostName#resolve} gives them
     * @return true when there is at least one and all are this host's
     */
    public static boolean allLocal(InetAddress... addresses) {
        if (addresses.length == 0) {
            return false;
        }
        for (InetAddress a : addresses) {
            if (!isLocal(a)) {
                return false;
            }
        }
        return true;
    }
}
