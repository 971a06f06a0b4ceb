package org.jrdma.soft.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** ICRC computation and exact verification (ROCEV2-FACTS §1.8, vectors §1.9). */
class IcrcTest {
    private final Icrc icrc = new Icrc();

    /** Addresses, ports, ID and flags read from a whole IPv4 vector. */
    record Ipv4(ByteBuffer packet, int src, int dst, int id, int flags, int sport, int dport, int udpLength) {
        static Ipv4 of(String hex) {
            ByteBuffer p = Hex.buffer(hex);
            return new Ipv4(p, p.getInt(12), p.getInt(16), p.getShort(4) & 0xFFFF, p.getShort(6) & 0xFFFF,
                    p.getShort(20) & 0xFFFF, p.getShort(22) & 0xFFFF, (p.getShort(24) & 0xFFFF) - 8);
        }

        int compute(Icrc icrc) {
            return icrc.computeIpv4(src, dst, id, flags, sport, dport, packet, Vectors.UDP_PAYLOAD, udpLength);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {Vectors.CNP_CONNECTX, Vectors.SCAPY_UC_SEND_ONLY, Vectors.RC_SEND_ONLY, Vectors.RC_ACK})
    void everySpecVectorVerifiesWithItsTrueHeader(String hex) {
        Ipv4 v = Ipv4.of(hex);

        assertThat(v.compute(icrc)).isEqualTo(Icrc.stored(v.packet(), Vectors.UDP_PAYLOAD, v.udpLength()));
        assertThat(icrc.verifyIpv4(v.src(), v.dst(), v.id(), v.flags(), v.sport(), v.dport(), v.packet(),
                Vectors.UDP_PAYLOAD, v.udpLength())).isTrue();
        assertThat(icrc.computeIpPacket(v.packet(), 0)).isEqualTo(v.compute(icrc));
        assertThat(icrc.verifyIpPacket(v.packet(), 0)).isTrue();
    }

    @Test
    void cnpWithItsTrueIdGivesTheCapturedBytes() {
        Ipv4 v = Ipv4.of(Vectors.CNP_CONNECTX);
        Icrc.store(v.packet(), Vectors.UDP_PAYLOAD, v.udpLength(), 0);

        icrc.writeIpv4(Hex.ipv4("10.0.17.1"), Hex.ipv4("10.0.18.1"), 0x718c, Icrc.IPV4_FLAGS_DF, 0, 4791,
                v.packet(), Vectors.UDP_PAYLOAD, v.udpLength());

        assertThat(Hex.of(v.packet(), v.packet().capacity() - 4, 4)).isEqualTo("82fd002a");
        assertThat(v.compute(icrc)).isEqualTo(0x2A00FD82);
    }

    @Test
    void scapyVectorGivesItsIcrc() {
        Ipv4 v = Ipv4.of(Vectors.SCAPY_UC_SEND_ONLY);
        assertThat(v.id()).isEqualTo(1144);
        assertThat(v.compute(icrc)).isEqualTo(0xF353F378);
    }

    /** (c) and (d) are what our sender puts on the wire: ID 0, DF — the default of writeIpv4. */
    @ParameterizedTest
    @ValueSource(strings = {Vectors.RC_SEND_ONLY, Vectors.RC_ACK})
    void defaultWriteReproducesTheDerivedVectorsByteForByte(String hex) {
        Ipv4 v = Ipv4.of(hex);
        ByteBuffer udp = ByteBuffer.allocate(v.udpLength());
        udp.put(0, v.packet(), Vectors.UDP_PAYLOAD, v.udpLength() - 4);

        icrc.writeIpv4(v.src(), v.dst(), v.sport(), v.dport(), udp, 0, v.udpLength());

        assertThat(Hex.of(udp, 0, v.udpLength())).isEqualTo(Hex.of(v.packet(), Vectors.UDP_PAYLOAD, v.udpLength()));
    }

    @Test
    void buildsTheRcSendOnlyVectorFromFlyweights() {
        ByteBuffer udp = ByteBuffer.allocate(Bth.LENGTH + 8 + 4);
        new Bth().wrap(udp, 0).clear().opcode(0x04).padCount(Pad.count(5)).pkey(Bth.DEFAULT_PKEY).destQp(0x12)
                .ackReq(true).psn(0x100);
        udp.put(Bth.LENGTH, "hello".getBytes(java.nio.charset.StandardCharsets.US_ASCII));

        icrc.writeIpv4(Hex.ipv4("192.168.1.1"), Hex.ipv4("192.168.1.2"), 0xC123, 4791, udp, 0, udp.capacity());

        assertThat(Hex.of(udp, 0, udp.capacity())).isEqualTo("0430ffff0000001280000100" + "68656c6c6f000000" + "2739208a");
    }

    /**
     * TOS, TTL, IP checksum, UDP checksum and BTH byte 4 are masked (§1.8): changing them changes
     * nothing (RELIABILITY-SECURITY REL-02; the IPv6 masks: ipv6AgreesWithTheWholePacketForm).
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 8, 10, 11, 26, 27, 28 + 4})
    void maskedFieldsDoNotAffectTheIcrc(int byteIndex) {
        for (String hex : new String[] {Vectors.CNP_CONNECTX, Vectors.SCAPY_UC_SEND_ONLY, Vectors.RC_SEND_ONLY}) {
            ByteBuffer packet = Hex.buffer(hex);
            for (int value : new int[] {0x00, 0x01, 0x80, 0xC0, 0xFF}) {
                packet.put(byteIndex, (byte) value);
                assertThat(icrc.verifyIpPacket(packet, 0)).as("byte %d = %02x", byteIndex, value).isTrue();
            }
        }
    }

    /** Version, total length, ID, flags, protocol, addresses, ports, UDP length and the BTH are covered. */
    @ParameterizedTest
    @ValueSource(ints = {0, 4, 5, 6, 7, 12, 15, 16, 19, 20, 21, 22, 23, 28, 29, 30, 31, 33, 36, 39, 40})
    void coveredFieldsDoAffectTheIcrc(int byteIndex) {
        ByteBuffer packet = Hex.buffer(Vectors.RC_SEND_ONLY);
        int before = icrc.computeIpPacket(packet, 0);
        packet.put(byteIndex, (byte) (packet.get(byteIndex) ^ 0x01));
        // Flipping the IHL makes it no packet the ICRC code reads (IPv4 options are not supported).
        if (byteIndex == 0) {
            assertThatThrownBy(() -> icrc.computeIpPacket(packet, 0)).isInstanceOf(IllegalArgumentException.class);
            return;
        }
        assertThat(icrc.computeIpPacket(packet, 0)).as("byte %d", byteIndex).isNotEqualTo(before);
        assertThat(icrc.verifyIpPacket(packet, 0)).isFalse();
    }

    @Test
    void heapDirectReadOnlyAndOffsetBuffersAgree() {
        Random random = new Random(7);
        for (int i = 0; i < 200; i++) {
            int payload = random.nextInt(3000);
            int offset = random.nextInt(64);
            TestPackets.Packet heap = TestPackets.build(0x04, payload, offset, 5, random, false);
            ByteBuffer direct = ByteBuffer.allocateDirect(heap.buffer().capacity());
            direct.put(0, heap.buffer(), 0, heap.buffer().capacity());
            direct.position(3).limit(direct.capacity() - 1);
            ByteBuffer readOnly = heap.buffer().asReadOnlyBuffer();
            int src = random.nextInt();
            int dst = random.nextInt();

            int expected = icrc.computeIpv4(src, dst, 0xC000, 4791, heap.buffer(), offset, heap.length());

            assertThat(icrc.computeIpv4(src, dst, 0xC000, 4791, direct, offset, heap.length())).isEqualTo(expected);
            assertThat(icrc.computeIpv4(src, dst, 0xC000, 4791, readOnly, offset, heap.length())).isEqualTo(expected);
            assertThat(direct.position()).isEqualTo(3);
            assertThat(direct.limit()).isEqualTo(direct.capacity() - 1);
            assertThat(icrc.computeIpv4(src, dst, 0xC000, 4791, copyAt(heap, 0), 0, heap.length())).isEqualTo(expected);
        }
    }

    @Test
    void ipv6AgreesWithTheWholePacketForm() {
        Random random = new Random(6);
        for (int i = 0; i < 100; i++) {
            int payload = random.nextInt(500);
            TestPackets.Packet udp = TestPackets.build(0x24, payload, 48, 0, random, false);
            ByteBuffer packet = udp.buffer();
            byte[] src = new byte[16];
            byte[] dst = new byte[16];
            random.nextBytes(src);
            random.nextBytes(dst);
            packet.putInt(0, 0x60000000 | random.nextInt(1 << 28));          // random traffic class and flow label
            packet.putShort(4, (short) (8 + udp.length()));
            packet.put(6, (byte) 17);
            packet.put(7, (byte) random.nextInt());                          // hop limit
            packet.put(8, src).put(24, dst);
            packet.putShort(40, (short) 0xC001).putShort(42, (short) 4791).putShort(44, (short) (8 + udp.length()));
            packet.putShort(46, (short) random.nextInt());

            icrc.writeIpv6(src, dst, 0xC001, 4791, packet, 48, udp.length());

            assertThat(icrc.verifyIpPacket(packet, 0)).isTrue();
            assertThat(icrc.verifyIpv6(src, dst, 0xC001, 4791, packet, 48, udp.length())).isTrue();
            dst[15] ^= 1;
            assertThat(icrc.verifyIpv6(src, dst, 0xC001, 4791, packet, 48, udp.length())).isFalse();
        }
    }

    @Test
    void icrcIsStoredLeastSignificantByteFirstWhateverTheBufferOrder() {
        ByteBuffer big = ByteBuffer.allocate(8);
        ByteBuffer little = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        Icrc.store(big, 0, 8, 0x2A00FD82);
        Icrc.store(little, 0, 8, 0x2A00FD82);

        assertThat(Hex.of(big, 4, 4)).isEqualTo("82fd002a");
        assertThat(Hex.of(little, 4, 4)).isEqualTo("82fd002a");
        assertThat(Icrc.stored(little, 0, 8)).isEqualTo(0x2A00FD82);
    }

    @Test
    void tooShortForABthAndIcrc() {
        ByteBuffer buffer = ByteBuffer.allocate(15);
        assertThatThrownBy(() -> icrc.computeIpv4(1, 2, 3, 4, buffer, 0, 15))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(icrc.verifyIpv4(1, 2, 0, Icrc.IPV4_FLAGS_DF, 3, 4, buffer, 0, 15)).isFalse();
        assertThat(icrc.verifyIpv6(new byte[16], new byte[16], 3, 4, buffer, 0, 15)).isFalse();
    }

    @Test
    void computingAllocatesNothing() {
        Random random = new Random(3);
        TestPackets.Packet heap = TestPackets.build(0x0A, 1024, 10, 0, random, false);
        TestPackets.Packet direct = TestPackets.build(0x0A, 1024, 10, 0, random, true);
        Runnable work = () -> {
            for (int i = 0; i < 10_000; i++) {
                icrc.writeIpv4(i, ~i, 0xC000 | i, 4791, heap.buffer(), 10, heap.length());
                icrc.writeIpv4(i, ~i, 0xC000 | i, 4791, direct.buffer(), 10, direct.length());
            }
        };
        work.run();
        assertThat(Allocations.bytesAllocatedBy(work)).isLessThan(1024);
    }

    private static ByteBuffer copyAt(TestPackets.Packet p, int at) {
        ByteBuffer copy = ByteBuffer.allocate(at + p.length());
        copy.put(at, p.buffer(), p.offset(), p.length());
        return copy;
    }
}
