package org.jrdma.soft.net;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import org.jrdma.soft.wire.Icrc;
import org.jrdma.soft.wire.IcrcVerifier;

/**
 * One end of RoCEv2 traffic: an IP address and a UDP port, IPv4 or IPv6. The family is chosen
 * once, when the endpoint is made (the device's bound address, an address handle's GID), and
 * everything that differs between the families lives in the two implementations: the ICRC's
 * pseudo-header (the masked IP and UDP headers, see {@link Icrc}), the IP header of a capture record
 * and of a UD receive's GRH area, and matching a datagram's source. Code that holds an endpoint
 * never asks which family it is.
 *
 * <p>Every method that names a second endpoint describes a packet from {@code this} to it. A
 * packet between endpoints of different families cannot be built (one socket, one family):
 * those methods then refuse it ({@code false}) rather than throw, since the family checks of
 * modify_qp and create_ah make it unreachable on the data path.
 *
 * <p>Endpoints are immutable; nothing here allocates.
 */
public sealed interface RoceEndpoint permits Ipv4Endpoint, Ipv6Endpoint {

    /** The endpoint of a socket address: {@link Ipv4Endpoint} for an Inet4Address, else {@link Ipv6Endpoint}. */
    static RoceEndpoint of(InetSocketAddress address) {
        return switch (address.getAddress()) {
            case Inet4Address _ -> new Ipv4Endpoint(address);
            case Inet6Address _ -> new Ipv6Endpoint(address);
            default -> throw new IllegalArgumentException("not an IP address: " + address);
        };
    }

    /** The address and port as a socket address (the object this endpoint was made from). */
    InetSocketAddress socketAddress();

    int port();

    /** Whether {@code source} — a datagram's source address, or a QP's peer — is this endpoint's IP address (ports aside). */
    boolean hasAddress(InetAddress source);

    /** Whether {@code other} has this endpoint's address and port. */
    boolean sameAs(RoceEndpoint other);

    /**
     * Writes, at {@code into[at]}, the IP and UDP headers of a packet from here to {@code to}
     * with {@code udpPayloadLength} bytes of UDP payload, masked as the ICRC covers them, for the
     * IP header our sender's kernel writes (IPv4: ID 0 and DF). Returns the bytes written (28 or
     * 48), or -1 if {@code to} is of the other family.
     */
    int writePseudoHeader(ByteBuffer into, int at, RoceEndpoint to, int udpPayloadLength);

    /** Computes and stores the ICRC of the UDP payload {@code packet[offset, offset + length)} sent from here to {@code to}. */
    default boolean writeIcrc(Icrc icrc, RoceEndpoint to, ByteBuffer packet, int offset, int length) {
        return writeIcrc(icrc, to, Icrc.IPV4_DEFAULT_ID, packet, offset, length);
    }

    /**
     * As above, for an IPv4 packet the kernel sends with identification {@code ipId}: segment i
     * of a GSO send carries ID i ({@link TxBatch}). IPv6 has no ID and ignores it.
     */
    boolean writeIcrc(Icrc icrc, RoceEndpoint to, int ipId, ByteBuffer packet, int offset, int length);

    /**
     * Whether a received UDP payload from here to {@code to} carries a correct ICRC. For IPv4 the
     * sender's ID and flags are solved for ({@link IcrcVerifier#lastIpId()}); IPv6 checks exactly.
     */
    boolean verifyIcrc(IcrcVerifier verifier, RoceEndpoint to, ByteBuffer packet, int offset, int length);

    /**
     * Writes the 40-byte GRH area of a UD receive for a datagram from here to {@code to}, as rxe
     * fills it for RoCEv2: for IPv4, 20 zero bytes then the IPv4 header rebuilt with the
     * {@code ipId} and {@code ipFlags} the ICRC check recovered; for IPv6, the IPv6 header (they
     * are ignored). TOS / traffic class 0 and TTL / hop limit 64: the ICRC masks them, so the
     * received values are not recoverable.
     */
    boolean writeGrh(ByteBuffer grh, RoceEndpoint to, int ipId, int ipFlags, int udpPayloadLength);

    /** Records the UDP payload {@code packet[offset, offset + length)} sent from here to {@code to} in {@code pcap}. */
    default boolean record(PcapWriter pcap, RoceEndpoint to, ByteBuffer packet, int offset, int length) throws IOException {
        return record(pcap, to, Icrc.IPV4_DEFAULT_ID, packet, offset, length);
    }

    /** As above, with the IPv4 identification the packet leaves with (ignored for IPv6). */
    boolean record(PcapWriter pcap, RoceEndpoint to, int ipId, ByteBuffer packet, int offset, int length)
            throws IOException;
}
