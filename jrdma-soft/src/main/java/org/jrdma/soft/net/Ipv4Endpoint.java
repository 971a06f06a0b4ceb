package org.jrdma.soft.net;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import org.jrdma.soft.wire.Icrc;
import org.jrdma.soft.wire.IcrcVerifier;

/** An IPv4 RoCEv2 endpoint; the address is kept as the big-endian int the headers carry. */
public final class Ipv4Endpoint implements RoceEndpoint {
    private static final int GRH_PAD = 20;

    private final InetSocketAddress socketAddress;
    private final int address;
    private final int port;

    Ipv4Endpoint(InetSocketAddress socketAddress) {
        if (!(socketAddress.getAddress() instanceof Inet4Address a)) {
            throw new IllegalArgumentException("not an IPv4 address: " + socketAddress);
        }
        this.socketAddress = socketAddress;
        this.address = a.hashCode(); // Inet4Address.hashCode() is the address, big-endian
        this.port = socketAddress.getPort();
    }

    /** The address as a big-endian int (10.0.17.1 = 0x0A001101). */
    public int address() {
        return address;
    }

    @Override
    public InetSocketAddress socketAddress() {
        return socketAddress;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public boolean hasAddress(InetAddress source) {
        return source instanceof Inet4Address && source.hashCode() == address;
    }

    @Override
    public boolean sameAs(RoceEndpoint other) {
        return other instanceof Ipv4Endpoint v4 && v4.address == address && v4.port == port;
    }

    @Override
    public int writePseudoHeader(ByteBuffer into, int at, RoceEndpoint to, int udpPayloadLength) {
        if (!(to instanceof Ipv4Endpoint v4)) {
            return -1;
        }
        return Icrc.writeIpv4PseudoHeader(into, at, address, v4.address, Icrc.IPV4_DEFAULT_ID, Icrc.IPV4_FLAGS_DF, port,
                v4.port, udpPayloadLength);
    }

    @Override
    public boolean writeIcrc(Icrc icrc, RoceEndpoint to, int ipId, ByteBuffer packet, int offset, int length) {
        if (!(to instanceof Ipv4Endpoint v4)) {
            return false;
        }
        icrc.writeIpv4(address, v4.address, ipId, Icrc.IPV4_FLAGS_DF, port, v4.port, packet, offset, length);
        return true;
    }

    @Override
    public boolean verifyIcrc(IcrcVerifier verifier, RoceEndpoint to, ByteBuffer packet, int offset, int length) {
        return to instanceof Ipv4Endpoint v4 && verifier.verifyIpv4(address, v4.address, port, v4.port, packet, offset, length);
    }

    @Override
    public boolean writeGrh(ByteBuffer grh, RoceEndpoint to, int ipId, int ipFlags, int udpPayloadLength) {
        if (!(to instanceof Ipv4Endpoint v4)) {
            return false;
        }
        for (int i = 0; i < GRH_PAD; i++) {
            grh.put(i, (byte) 0);
        }
        int ip = GRH_PAD;
        grh.put(ip, (byte) 0x45).put(ip + 1, (byte) 0).putShort(ip + 2, (short) (20 + 8 + udpPayloadLength))
                .putShort(ip + 4, (short) ipId).putShort(ip + 6, (short) ipFlags).put(ip + 8, (byte) 64)
                .put(ip + 9, (byte) 17).putShort(ip + 10, (short) 0).putInt(ip + 12, address).putInt(ip + 16, v4.address);
        int sum = 0;
        for (int i = 0; i < 20; i += 2) {
            sum += grh.getShort(ip + i) & 0xFFFF;
        }
        sum = (sum & 0xFFFF) + (sum >>> 16);
        sum = (sum & 0xFFFF) + (sum >>> 16);
        grh.putShort(ip + 10, (short) ~sum);
        return true;
    }

    @Override
    public boolean record(PcapWriter pcap, RoceEndpoint to, int ipId, ByteBuffer packet, int offset, int length)
            throws IOException {
        if (!(to instanceof Ipv4Endpoint v4)) {
            return false;
        }
        pcap.write(address, port, v4.address, v4.port, ipId, packet, offset, length);
        return true;
    }

    @Override
    public String toString() {
        return socketAddress.getAddress().getHostAddress() + ":" + port;
    }
}
