package org.jrdma.soft.net;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.jrdma.soft.wire.Icrc;
import org.jrdma.soft.wire.IcrcVerifier;

/**
 * An IPv6 RoCEv2 endpoint (the GID is the address itself, not ::ffff:-mapped). The 16 address
 * bytes are copied once, here: {@link InetAddress#getAddress()} copies on every call.
 */
public final class Ipv6Endpoint implements RoceEndpoint {
    private final InetSocketAddress socketAddress;
    private final Inet6Address inet;
    private final byte[] address;
    private final int port;

    Ipv6Endpoint(InetSocketAddress socketAddress) {
        if (!(socketAddress.getAddress() instanceof Inet6Address a)) {
            throw new IllegalArgumentException("not an IPv6 address: " + socketAddress);
        }
        this.socketAddress = socketAddress;
        this.inet = a;
        this.address = a.getAddress();
        this.port = socketAddress.getPort();
    }

    /** A copy of the 16 address bytes. */
    public byte[] address() {
        return address.clone();
    }

    @Override
    public InetSocketAddress socketAddress() {
        return socketAddress;
    }

    @Override
    public int port() {
        return port;
    }

    /** Inet6Address.equals compares the 16 bytes without copying them (the scope is not compared). */
    @Override
    public boolean hasAddress(InetAddress source) {
        return inet.equals(source);
    }

    @Override
    public boolean sameAs(RoceEndpoint other) {
        return other instanceof Ipv6Endpoint v6 && v6.port == port && Arrays.equals(v6.address, address);
    }

    @Override
    public int writePseudoHeader(ByteBuffer into, int at, RoceEndpoint to, int udpPayloadLength) {
        if (!(to instanceof Ipv6Endpoint v6)) {
            return -1;
        }
        return Icrc.writeIpv6PseudoHeader(into, at, address, v6.address, port, v6.port, udpPayloadLength);
    }

    @Override
    public boolean writeIcrc(Icrc icrc, RoceEndpoint to, int ipId, ByteBuffer packet, int offset, int length) {
        if (!(to instanceof Ipv6Endpoint v6)) {
            return false;
        }
        // No ID, every variable field masked: the receiver checks this value exactly.
        icrc.writeIpv6(address, v6.address, port, v6.port, packet, offset, length);
        return true;
    }

    @Override
    public boolean verifyIcrc(IcrcVerifier verifier, RoceEndpoint to, ByteBuffer packet, int offset, int length) {
        return to instanceof Ipv6Endpoint v6 && verifier.verifyIpv6(address, v6.address, port, v6.port, packet, offset, length);
    }

    /** Version 6, traffic class and flow label 0, payload length, next header UDP, hop limit 64, the addresses. */
    @Override
    public boolean writeGrh(ByteBuffer grh, RoceEndpoint to, int ipId, int ipFlags, int udpPayloadLength) {
        if (!(to instanceof Ipv6Endpoint v6)) {
            return false;
        }
        grh.putInt(0, 0x60000000).putShort(4, (short) (8 + udpPayloadLength)).put(6, (byte) 17).put(7, (byte) 64)
                .put(8, address).put(24, v6.address);
        return true;
    }

    @Override
    public boolean record(PcapWriter pcap, RoceEndpoint to, int ipId, ByteBuffer packet, int offset, int length)
            throws IOException {
        if (!(to instanceof Ipv6Endpoint v6)) {
            return false;
        }
        pcap.writeIpv6(address, port, v6.address, v6.port, packet, offset, length);
        return true;
    }

    @Override
    public String toString() {
        return "[" + socketAddress.getAddress().getHostAddress() + "]:" + port;
    }
}
