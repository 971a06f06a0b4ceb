package org.jrdma.soft.wire;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32;

/**
 * The RoCEv2 invariant CRC (ROCEV2-FACTS §1.8): standard CRC-32 ({@link CRC32}, the same as
 * zlib) over
 * <ol>
 *   <li>8 bytes of 0xFF, standing for the masked LRH of native InfiniBand;</li>
 *   <li>the IP header with the fields routers may change set to all ones: IPv4 TOS, TTL and
 *       header checksum; IPv6 traffic class, flow label and hop limit. The IPv4
 *       <em>identification</em> and flags are covered (proved by the ConnectX capture, §1.9a);</li>
 *   <li>the UDP header with the checksum set to 0xFFFF;</li>
 *   <li>the BTH with byte 4 (FECN, BECN, Resv6a) set to 0xFF;</li>
 *   <li>the other headers, payload and pad as sent.</li>
 * </ol>
 * The result goes in the last 4 bytes of the UDP payload, least-significant byte first.
 *
 * <p>A UDP socket hands us only the UDP payload, so the IP and UDP headers are rebuilt from the
 * addresses and ports (IPv4 without options, as rxe and NICs send it). Lengths follow from the
 * payload: IPv4 total length = 20 + 8 + payload, IPv6 payload length = UDP length = 8 + payload.
 * On send, our IPv4 socket is unconnected with IP_DONTFRAGMENT set, which makes Linux write ID 0
 * and DF (§8.1), so those are the defaults; receive-side verification, where the peer's ID is
 * unknown, is {@link IcrcVerifier}.
 *
 * <p>Not thread-safe ({@link CRC32} is not): one instance per engine thread. Nothing is allocated
 * per packet, except when a read-only heap buffer makes {@link CRC32} copy.
 *
 * <p>All {@code (buffer, offset, length)} triples denote the UDP payload: BTH through ICRC.
 */
public final class Icrc {
    public static final int LENGTH = 4;
    public static final int IPV4_HEADER_LENGTH = 20;
    public static final int IPV6_HEADER_LENGTH = 40;
    public static final int UDP_HEADER_LENGTH = 8;
    /** IPv4 flags/fragment-offset word with only Don't Fragment set. */
    public static final int IPV4_FLAGS_DF = 0x4000;
    /** The IPv4 ID Linux writes for an unconnected socket sending with DF and PMTUDISC_DO (§8.1). */
    public static final int IPV4_DEFAULT_ID = 0;

    private static final int IP_PROTO_UDP = 17;
    /** 8 × 0xFF, the stand-in for the masked LRH. */
    private static final int LRH_LENGTH = 8;
    private static final int IPV4_PREFIX = LRH_LENGTH + IPV4_HEADER_LENGTH + UDP_HEADER_LENGTH + Bth.LENGTH;
    private static final int IPV6_PREFIX = LRH_LENGTH + IPV6_HEADER_LENGTH + UDP_HEADER_LENGTH + Bth.LENGTH;

    private final CRC32 crc = new CRC32();
    /** The masked IP, UDP and BTH headers with the LRH stand-in in front, rebuilt per packet. */
    private final byte[] prefixBytes = new byte[IPV6_PREFIX];
    private final ByteBuffer prefix = ByteBuffer.wrap(prefixBytes);

    // ---------------------------------------------------------------- IPv4

    /** The ICRC of an IPv4 packet sent with ID 0 and DF, as our sender puts it on the wire. */
    public int computeIpv4(int srcIp, int dstIp, int srcPort, int dstPort, ByteBuffer buffer, int offset, int length) {
        return computeIpv4(srcIp, dstIp, IPV4_DEFAULT_ID, IPV4_FLAGS_DF, srcPort, dstPort, buffer, offset, length);
    }

    /**
     * The ICRC value (as {@link CRC32#getValue()}, truncated to int) of the UDP payload
     * {@code buffer[offset, offset + length)}, which must hold at least a BTH and the ICRC slot.
     *
     * @param srcIp     IPv4 source address, big-endian int (10.0.17.1 = 0x0A001101)
     * @param ipId      IPv4 identification, 16 bits
     * @param ipFlags   IPv4 flags and fragment offset word, e.g. {@link #IPV4_FLAGS_DF}
     */
    public int computeIpv4(int srcIp, int dstIp, int ipId, int ipFlags, int srcPort, int dstPort,
            ByteBuffer buffer, int offset, int length) {
        checkLength(length);
        ipv4Prefix(srcIp, dstIp, ipId, ipFlags, srcPort, dstPort, buffer, offset, length);
        return finish(IPV4_PREFIX, buffer, offset, length);
    }

    /** Computes the ICRC for ID 0 and DF and stores it in the last 4 bytes. */
    public void writeIpv4(int srcIp, int dstIp, int srcPort, int dstPort, ByteBuffer buffer, int offset, int length) {
        store(buffer, offset, length, computeIpv4(srcIp, dstIp, srcPort, dstPort, buffer, offset, length));
    }

    public void writeIpv4(int srcIp, int dstIp, int ipId, int ipFlags, int srcPort, int dstPort,
            ByteBuffer buffer, int offset, int length) {
        store(buffer, offset, length,
                computeIpv4(srcIp, dstIp, ipId, ipFlags, srcPort, dstPort, buffer, offset, length));
    }

    /** Exact check against a known IPv4 ID and flags; false for a packet too short to carry an ICRC. */
    public boolean verifyIpv4(int srcIp, int dstIp, int ipId, int ipFlags, int srcPort, int dstPort,
            ByteBuffer buffer, int offset, int length) {
        return length >= Bth.LENGTH + LENGTH
                && computeIpv4(srcIp, dstIp, ipId, ipFlags, srcPort, dstPort, buffer, offset, length)
                        == stored(buffer, offset, length);
    }

    // ---------------------------------------------------------------- IPv6

    /**
     * The ICRC of an IPv6 packet. IPv6 has no ID and every field a router may change is masked,
     * so the receiver can check it exactly.
     *
     * @param srcIp 16-byte source address (for a RoCEv2 GID, the GID itself)
     */
    public int computeIpv6(byte[] srcIp, byte[] dstIp, int srcPort, int dstPort, ByteBuffer buffer, int offset,
            int length) {
        checkLength(length);
        ipv6Prefix(srcIp, dstIp, srcPort, dstPort, buffer, offset, length);
        return finish(IPV6_PREFIX, buffer, offset, length);
    }

    public void writeIpv6(byte[] srcIp, byte[] dstIp, int srcPort, int dstPort, ByteBuffer buffer, int offset,
            int length) {
        store(buffer, offset, length, computeIpv6(srcIp, dstIp, srcPort, dstPort, buffer, offset, length));
    }

    public boolean verifyIpv6(byte[] srcIp, byte[] dstIp, int srcPort, int dstPort, ByteBuffer buffer, int offset,
            int length) {
        return length >= Bth.LENGTH + LENGTH
                && computeIpv6(srcIp, dstIp, srcPort, dstPort, buffer, offset, length) == stored(buffer, offset, length);
    }

    // ---------------------------------------------------------------- whole IP packets

    /**
     * The ICRC of a whole captured IP packet starting at {@code offset}: IPv4 with a 20-byte
     * header, or IPv6 without extension headers, carrying UDP. The header fields are taken as
     * captured and masked per §1.8, so TOS, TTL, checksums, traffic class, flow label and hop
     * limit do not matter. The UDP payload length comes from the UDP length field, so trailing
     * Ethernet padding in a capture is ignored.
     *
     * @throws IllegalArgumentException if it is neither such a packet nor long enough for a BTH and ICRC
     */
    public int computeIpPacket(ByteBuffer packet, int offset) {
        int ipHeaderLength = ipHeaderLength(packet, offset);
        int prefixLength = LRH_LENGTH + ipHeaderLength + UDP_HEADER_LENGTH + Bth.LENGTH;
        int udp = offset + ipHeaderLength;
        int payloadLength = udpPayloadLength(packet, udp);
        checkLength(payloadLength);
        fillLrh();
        packet.get(offset, prefixBytes, LRH_LENGTH, ipHeaderLength + UDP_HEADER_LENGTH + Bth.LENGTH);
        int ip = LRH_LENGTH;
        if (ipHeaderLength == IPV4_HEADER_LENGTH) {
            prefixBytes[ip + 1] = (byte) 0xFF;     // TOS
            prefixBytes[ip + 8] = (byte) 0xFF;     // TTL
            prefixBytes[ip + 10] = (byte) 0xFF;    // header checksum
            prefixBytes[ip + 11] = (byte) 0xFF;
        } else {
            prefixBytes[ip] |= 0x0F;               // traffic class (4 bits here, 4 in the next byte)
            prefixBytes[ip + 1] = (byte) 0xFF;     // ... and the 20-bit flow label
            prefixBytes[ip + 2] = (byte) 0xFF;
            prefixBytes[ip + 3] = (byte) 0xFF;
            prefixBytes[ip + 7] = (byte) 0xFF;     // hop limit
        }
        int udpAt = LRH_LENGTH + ipHeaderLength;
        prefixBytes[udpAt + 6] = (byte) 0xFF;      // UDP checksum
        prefixBytes[udpAt + 7] = (byte) 0xFF;
        prefixBytes[udpAt + UDP_HEADER_LENGTH + Bth.RESV8A_OFFSET] = (byte) 0xFF;
        return finish(prefixLength, packet, udp + UDP_HEADER_LENGTH, payloadLength);
    }

    /**
     * Checks a whole captured IP packet ({@link #computeIpPacket}); false when its UDP payload is
     * too short for a BTH and ICRC.
     *
     * @throws IllegalArgumentException if it is not such a packet or the capture is shorter than its UDP length
     */
    public boolean verifyIpPacket(ByteBuffer packet, int offset) {
        int udp = offset + ipHeaderLength(packet, offset);
        int payloadLength = udpPayloadLength(packet, udp);
        return payloadLength >= Bth.LENGTH + LENGTH
                && computeIpPacket(packet, offset) == stored(packet, udp + UDP_HEADER_LENGTH, payloadLength);
    }

    private static int ipHeaderLength(ByteBuffer packet, int offset) {
        // A capture is input: check every length against the buffer before reading (REL-03, found
        // by WireFuzzTest: a truncated capture used to throw IndexOutOfBoundsException).
        if (offset < 0 || packet.limit() - offset < IPV4_HEADER_LENGTH + UDP_HEADER_LENGTH) {
            throw new IllegalArgumentException("too short for an IP and a UDP header: "
                    + Math.max(0, packet.limit() - offset) + " bytes");
        }
        int versionIhl = packet.get(offset) & 0xFF;
        if (versionIhl == 0x45 && packet.get(offset + 9) == IP_PROTO_UDP) {
            return IPV4_HEADER_LENGTH;
        }
        if (versionIhl >>> 4 == 6 && packet.get(offset + 6) == IP_PROTO_UDP) {
            if (packet.limit() - offset < IPV6_HEADER_LENGTH + UDP_HEADER_LENGTH) {
                throw new IllegalArgumentException("too short for an IPv6 and a UDP header: " + (packet.limit() - offset) + " bytes");
            }
            return IPV6_HEADER_LENGTH;
        }
        throw new IllegalArgumentException("not UDP over IPv4 without options or IPv6 without extension headers");
    }

    /** The UDP length field less the header; refused if it claims more bytes than were captured (REL-03). */
    private static int udpPayloadLength(ByteBuffer packet, int udp) {
        int payload = (packet.getShort(udp + 4) & 0xFFFF) - UDP_HEADER_LENGTH;
        if (payload > packet.limit() - udp - UDP_HEADER_LENGTH) {
            throw new IllegalArgumentException("UDP length " + (payload + UDP_HEADER_LENGTH) + " exceeds the "
                    + (packet.limit() - udp) + " bytes captured after the IP header");
        }
        return payload;
    }

    // ---------------------------------------------------------------- placement

    /** The ICRC stored in the last 4 bytes of the UDP payload, read least-significant byte first. */
    public static int stored(ByteBuffer buffer, int offset, int length) {
        int raw = buffer.getInt(offset + length - LENGTH);
        return buffer.order() == ByteOrder.LITTLE_ENDIAN ? raw : Integer.reverseBytes(raw);
    }

    /** Stores {@code icrc} in the last 4 bytes, least-significant byte first, like an Ethernet FCS. */
    public static void store(ByteBuffer buffer, int offset, int length, int icrc) {
        buffer.putInt(offset + length - LENGTH,
                buffer.order() == ByteOrder.LITTLE_ENDIAN ? icrc : Integer.reverseBytes(icrc));
    }

    // ---------------------------------------------------------------- internals

    private static void checkLength(int length) {
        if (length < Bth.LENGTH + LENGTH) {
            throw new IllegalArgumentException("a RoCEv2 UDP payload holds at least a BTH and the ICRC: " + length);
        }
    }

    private void fillLrh() {
        prefix.putLong(0, -1L);
    }

    /** Masked bytes (TOS, TTL, checksum, UDP checksum, BTH byte 4) are written as 0xFF each time. */
    private void ipv4Prefix(int srcIp, int dstIp, int ipId, int ipFlags, int srcPort, int dstPort,
            ByteBuffer buffer, int offset, int length) {
        fillLrh();
        int bth = LRH_LENGTH + writeIpv4PseudoHeader(prefix, LRH_LENGTH, srcIp, dstIp, ipId, ipFlags, srcPort, dstPort, length);
        maskedBth(bth, buffer, offset);
    }

    private void ipv6Prefix(byte[] srcIp, byte[] dstIp, int srcPort, int dstPort, ByteBuffer buffer, int offset,
            int length) {
        fillLrh();
        int bth = LRH_LENGTH + writeIpv6PseudoHeader(prefix, LRH_LENGTH, srcIp, dstIp, srcPort, dstPort, length);
        maskedBth(bth, buffer, offset);
    }

    /**
     * Writes the IPv4 and UDP headers the ICRC covers, at {@code into[at]}: TOS, TTL, the header
     * checksum and the UDP checksum as all ones, the rest as sent (IPv4 without options). Returns
     * the bytes written, {@value #IPV4_HEADER_LENGTH} + {@value #UDP_HEADER_LENGTH}.
     */
    public static int writeIpv4PseudoHeader(ByteBuffer into, int at, int srcIp, int dstIp, int ipId, int ipFlags,
            int srcPort, int dstPort, int udpPayloadLength) {
        into.putInt(at, 0x45FF0000 | (IPV4_HEADER_LENGTH + UDP_HEADER_LENGTH + udpPayloadLength) & 0xFFFF);
        into.putInt(at + 4, (ipId & 0xFFFF) << 16 | (ipFlags & 0xFFFF));
        into.putInt(at + 8, 0xFF00FFFF | IP_PROTO_UDP << 16);
        into.putInt(at + 12, srcIp);
        into.putInt(at + 16, dstIp);
        maskedUdp(into, at + IPV4_HEADER_LENGTH, srcPort, dstPort, udpPayloadLength);
        return IPV4_HEADER_LENGTH + UDP_HEADER_LENGTH;
    }

    /**
     * Writes the IPv6 and UDP headers the ICRC covers, at {@code into[at]}: traffic class, flow
     * label, hop limit and the UDP checksum as all ones (no extension headers). Returns the bytes
     * written, {@value #IPV6_HEADER_LENGTH} + {@value #UDP_HEADER_LENGTH}.
     */
    public static int writeIpv6PseudoHeader(ByteBuffer into, int at, byte[] srcIp, byte[] dstIp, int srcPort,
            int dstPort, int udpPayloadLength) {
        if (srcIp.length != 16 || dstIp.length != 16) {
            throw new IllegalArgumentException("IPv6 addresses are 16 bytes");
        }
        into.putInt(at, 0x6FFFFFFF);                                   // version 6, TC and flow label masked
        into.putInt(at + 4, (UDP_HEADER_LENGTH + udpPayloadLength) << 16 | IP_PROTO_UDP << 8 | 0xFF);  // hop limit masked
        into.put(at + 8, srcIp);
        into.put(at + 24, dstIp);
        maskedUdp(into, at + IPV6_HEADER_LENGTH, srcPort, dstPort, udpPayloadLength);
        return IPV6_HEADER_LENGTH + UDP_HEADER_LENGTH;
    }

    private static void maskedUdp(ByteBuffer into, int udp, int srcPort, int dstPort, int udpPayloadLength) {
        into.putInt(udp, (srcPort & 0xFFFF) << 16 | (dstPort & 0xFFFF));
        into.putInt(udp + 4, (UDP_HEADER_LENGTH + udpPayloadLength) << 16 | 0xFFFF);
    }

    private void maskedBth(int bth, ByteBuffer buffer, int offset) {
        buffer.get(offset, prefixBytes, bth, Bth.LENGTH);
        prefixBytes[bth + Bth.RESV8A_OFFSET] = (byte) 0xFF;
    }

    /** CRC over the prepared prefix, then the rest of the headers, payload and pad (not the ICRC slot). */
    private int finish(int prefixLength, ByteBuffer buffer, int offset, int length) {
        crc.reset();
        crc.update(prefixBytes, 0, prefixLength);
        update(buffer, offset + Bth.LENGTH, length - Bth.LENGTH - LENGTH);
        return (int) crc.getValue();
    }

    /** Feeds {@code buffer[from, from + count)} without allocating; position and limit are restored. */
    private void update(ByteBuffer buffer, int from, int count) {
        if (count == 0) {
            return;
        }
        if (buffer.hasArray()) {
            crc.update(buffer.array(), buffer.arrayOffset() + from, count);
            return;
        }
        // Direct (or read-only) buffer: CRC32.update(ByteBuffer) reads between position and limit,
        // so move them and put them back (this discards a mark), rather than allocate a slice.
        int position = buffer.position();
        int limit = buffer.limit();
        buffer.limit(from + count).position(from);
        crc.update(buffer);
        buffer.limit(limit).position(position);
    }
}
