package org.jrdma.soft.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import org.jrdma.soft.net.Ipv4Endpoint;
import org.jrdma.soft.net.Ipv6Endpoint;
import org.jrdma.soft.net.RoceEndpoint;
import org.junit.jupiter.api.Test;

/**
 * The address family's part of the ICRC and of UD receives, through the sealed endpoint type,
 * checked against the golden vectors (ROCEV2-FACTS §1.9(c), (d) for IPv4 and their IPv6 forms
 * from {@link IcrcIpv6VectorTest}). Here, in the wire tests, because the vectors are.
 */
class RoceEndpointTest {
    private final Icrc icrc = new Icrc();
    private final IcrcVerifier verifier = new IcrcVerifier(IcrcVerifier.Ipv4IdPolicy.ID_ZERO_ONLY);

    private static RoceEndpoint endpoint(String address, int port) throws Exception {
        return RoceEndpoint.of(new InetSocketAddress(InetAddress.getByName(address), port));
    }

    @Test
    void theFamilyIsTheAddresses() throws Exception {
        assertThat(endpoint("192.168.1.1", 4791)).isInstanceOf(Ipv4Endpoint.class);
        assertThat(endpoint("fd00::1", 4791)).isInstanceOf(Ipv6Endpoint.class);
        // An IPv4-mapped GID names an IPv4 peer: Java resolves ::ffff:a.b.c.d to an Inet4Address.
        assertThat(endpoint("::ffff:10.0.0.7", 4791)).isInstanceOf(Ipv4Endpoint.class);
        assertThat(((Ipv4Endpoint) endpoint("10.0.17.1", 4791)).address()).isEqualTo(0x0A001101);
    }

    /** (c): TOS, TTL, the IP checksum and the UDP checksum become all ones; ID 0 and DF, as our sender's kernel writes. */
    @Test
    void ipv4PseudoHeaderIsTheVectorsHeadersMasked() throws Exception {
        ByteBuffer into = ByteBuffer.allocate(64);
        int n = endpoint("192.168.1.1", 0xC123).writePseudoHeader(into, 4, endpoint("192.168.1.2", 4791), 0x20 - 8);

        assertThat(n).isEqualTo(28);
        assertThat(Hex.of(into, 4, n)).isEqualTo("45ff0034" + "00004000" + "ff11ffff" + "c0a80101" + "c0a80102"
                + "c12312b7" + "0020ffff");
    }

    /** IPv6: traffic class, flow label, hop limit and the UDP checksum masked; nothing else to choose. */
    @Test
    void ipv6PseudoHeaderIsTheVectorsHeadersMasked() throws Exception {
        ByteBuffer into = ByteBuffer.allocate(64);
        int n = endpoint("fd00::1", 0xC123).writePseudoHeader(into, 0, endpoint("fd00::2", 4791), 0x20 - 8);

        assertThat(n).isEqualTo(48);
        assertThat(Hex.of(into, 0, n)).isEqualTo("6fffffff" + "002011ff" + "fd000000000000000000000000000001"
                + "fd000000000000000000000000000002" + "c12312b7" + "0020ffff");
    }

    @Test
    void ipv4IcrcReproducesTheDerivedVectorsAndVerifies() throws Exception {
        checkIcrc(Hex.buffer(Vectors.RC_SEND_ONLY), Vectors.UDP_PAYLOAD, endpoint("192.168.1.1", 0xC123),
                endpoint("192.168.1.2", 4791), endpoint("192.168.1.3", 4791));
        checkIcrc(Hex.buffer(Vectors.RC_ACK), Vectors.UDP_PAYLOAD, endpoint("192.168.1.2", 0xC456),
                endpoint("192.168.1.1", 4791), endpoint("192.168.1.1", 4792));
    }

    @Test
    void ipv6IcrcReproducesTheScapyVectorsAndVerifies() throws Exception {
        checkIcrc(Hex.buffer(IcrcIpv6VectorTest.RC_SEND_ONLY), 48, endpoint("fd00::1", 0xC123), endpoint("fd00::2", 4791),
                endpoint("fd00::3", 4791));
        checkIcrc(Hex.buffer(IcrcIpv6VectorTest.RC_ACK), 48, endpoint("::1", 4791), endpoint("::1", 4791),
                endpoint("::2", 4791));
    }

    /** The endpoint writes the vector's ICRC byte for byte, verifies it, and refuses it for another destination. */
    private void checkIcrc(ByteBuffer packet, int udpPayload, RoceEndpoint from, RoceEndpoint to, RoceEndpoint other) {
        int length = packet.limit() - udpPayload;
        String wire = Hex.of(packet, udpPayload, length);
        assertThat(from.verifyIcrc(verifier, to, packet, udpPayload, length)).isTrue();
        assertThat(from.verifyIcrc(verifier, other, packet, udpPayload, length)).isFalse();

        packet.putInt(packet.limit() - Icrc.LENGTH, 0);
        assertThat(from.writeIcrc(icrc, to, packet, udpPayload, length)).isTrue();
        assertThat(Hex.of(packet, udpPayload, length)).isEqualTo(wire);
    }

    @Test
    void aPacketBetweenFamiliesIsRefused() throws Exception {
        RoceEndpoint v4 = endpoint("192.168.1.1", 4791);
        RoceEndpoint v6 = endpoint("fd00::1", 4791);
        ByteBuffer packet = Hex.buffer(Vectors.RC_SEND_ONLY);
        int length = packet.limit() - Vectors.UDP_PAYLOAD;

        assertThat(v4.writePseudoHeader(ByteBuffer.allocate(64), 0, v6, 16)).isEqualTo(-1);
        assertThat(v6.writePseudoHeader(ByteBuffer.allocate(64), 0, v4, 16)).isEqualTo(-1);
        assertThat(v4.writeIcrc(icrc, v6, packet, Vectors.UDP_PAYLOAD, length)).isFalse();
        assertThat(v6.verifyIcrc(verifier, v4, packet, Vectors.UDP_PAYLOAD, length)).isFalse();
        assertThat(v4.writeGrh(ByteBuffer.allocate(40), v6, 0, 0, 16)).isFalse();
        assertThat(v4.sameAs(v6)).isFalse();
    }

    @Test
    void sourcesMatchByAddressAlone() throws Exception {
        RoceEndpoint v4 = endpoint("192.168.1.1", 4791);
        assertThat(v4.hasAddress(InetAddress.getByName("192.168.1.1"))).isTrue();
        assertThat(v4.hasAddress(InetAddress.getByName("192.168.1.2"))).isFalse();
        assertThat(v4.hasAddress(InetAddress.getByName("::ffff:192.168.1.1"))).as("the mapped form is the address").isTrue();
        assertThat(v4.hasAddress(InetAddress.getByName("::c0a8:101"))).as("IPv4-compatible IPv6 is not").isFalse();

        RoceEndpoint v6 = endpoint("fd00::1", 4791);
        assertThat(v6.hasAddress(InetAddress.getByName("fd00:0:0:0:0:0:0:1"))).isTrue();
        assertThat(v6.hasAddress(InetAddress.getByName("fd00::2"))).isFalse();
        assertThat(v6.hasAddress(InetAddress.getByName("192.168.1.1"))).isFalse();

        assertThat(v4.sameAs(endpoint("192.168.1.1", 4791))).isTrue();
        assertThat(v4.sameAs(endpoint("192.168.1.1", 4792))).as("the port counts").isFalse();
        assertThat(v6.sameAs(endpoint("fd00::1", 4791))).isTrue();
        assertThat(v6.sameAs(endpoint("fd00::1", 4792))).isFalse();
    }

    /** IPv4 GRH area: 20 zero bytes, then the header with the recovered ID and flags and a valid checksum. */
    @Test
    void ipv4GrhCarriesTheRecoveredIdAndAChecksum() throws Exception {
        ByteBuffer grh = ByteBuffer.allocate(40);
        for (int i = 0; i < 40; i++) {
            grh.put(i, (byte) 0x5A); // what the last datagram left
        }
        assertThat(endpoint("192.168.1.1", 0xC123).writeGrh(grh, endpoint("192.168.1.2", 4791), 0x1234, 0x4000, 32)).isTrue();

        assertThat(Hex.of(grh, 0, 40)).isEqualTo("00".repeat(20) + "4500003c" + "12344000" + "4011a529" + "c0a80101" + "c0a80102");
    }

    @Test
    void ipv6GrhIsTheIpv6Header() throws Exception {
        ByteBuffer grh = ByteBuffer.allocate(40);
        assertThat(endpoint("fd00::1", 0xC123).writeGrh(grh, endpoint("fd00::2", 4791), 0x1234, 0x4000, 32)).isTrue();

        assertThat(Hex.of(grh, 0, 40)).isEqualTo("60000000" + "00281140" + "fd000000000000000000000000000001"
                + "fd000000000000000000000000000002");
    }
}
