package org.jrdma.soft.net;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a soft device's RoCEv2 packets to a classic pcap file (LINKTYPE_RAW: each record is
 * an IPv4 or IPv6 packet) for Wireshark / tshark, which decode UDP 4791 as RoCEv2. The IPv4 and UDP
 * headers are the ones Linux puts on the wire for our socket: ID 0, DF, TTL 64, UDP checksum
 * 0 — so the recorded ICRC verifies against the recorded header.
 */
public final class PcapWriter implements AutoCloseable {
    private static final int LINKTYPE_RAW = 101;
    private static final int SNAPLEN = 65535;

    private final Path file;
    private final OutputStream out;
    private final ByteBuffer header = ByteBuffer.allocate(16 + 48).order(ByteOrder.LITTLE_ENDIAN);
    private final byte[] payload = new byte[SNAPLEN];
    /** A packet recorded while the device closes (another thread's last engine pass) is not an error: it is skipped. */
    private boolean closed;

    private PcapWriter(Path file, OutputStream out) {
        this.file = file;
        this.out = out;
    }

    /**
     * Creates {@code file} (replacing one that exists) and writes the pcap header through to
     * it, so that a full or read-only filesystem fails here rather than at the first packet; on
     * failure no file is left behind.
     */
    public static PcapWriter create(Path file) throws IOException {
        OutputStream raw = Files.newOutputStream(file);
        try {
            PcapWriter w = new PcapWriter(file, new BufferedOutputStream(raw, 1 << 16));
            ByteBuffer global = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
            global.putInt(0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(SNAPLEN).putInt(LINKTYPE_RAW);
            w.out.write(global.array());
            w.out.flush();
            return w;
        } catch (IOException e) {
            try {
                raw.close();
            } catch (IOException ignored) {
                // the header did not fit; closing has nothing to add
            }
            try {
                Files.deleteIfExists(file);
            } catch (IOException notRemoved) {
                e.addSuppressed(notRemoved);
            }
            throw e;
        }
    }

    /** The file being written. */
    public Path file() {
        return file;
    }

    /**
     * Records one UDP payload ({@code buffer[offset, offset + length)}: BTH … ICRC) sent from
     * {@code srcIp:srcPort} to {@code dstIp:dstPort}, stamped with the wall clock.
     */
    public void write(int srcIp, int srcPort, int dstIp, int dstPort, ByteBuffer buffer, int offset, int length)
            throws IOException {
        write(srcIp, srcPort, dstIp, dstPort, 0, buffer, offset, length);
    }

    /** As above, with the IPv4 identification the packet carries (segment i of a GSO send has ID i). */
    public synchronized void write(int srcIp, int srcPort, int dstIp, int dstPort, int ipId, ByteBuffer buffer, int offset,
            int length) throws IOException {
        if (closed) {
            return;
        }
        long micros = java.time.Instant.now().toEpochMilli() * 1000 + (System.nanoTime() / 1000) % 1000;
        int ipLength = 20 + 8 + length;
        header.clear();
        header.putInt((int) (micros / 1_000_000)).putInt((int) (micros % 1_000_000)).putInt(ipLength).putInt(ipLength);
        header.order(ByteOrder.BIG_ENDIAN);
        int ipStart = header.position();
        header.put((byte) 0x45).put((byte) 0).putShort((short) ipLength).putShort((short) ipId).putShort((short) 0x4000)
                .put((byte) 64).put((byte) 17).putShort((short) 0).putInt(srcIp).putInt(dstIp);
        header.putShort(ipStart + 10, (short) ipv4Checksum(header, ipStart));
        header.putShort((short) srcPort).putShort((short) dstPort).putShort((short) (8 + length)).putShort((short) 0);
        header.order(ByteOrder.LITTLE_ENDIAN);
        out.write(header.array(), 0, header.position());
        buffer.get(offset, payload, 0, length);
        out.write(payload, 0, length);
    }

    /**
     * Records one UDP payload sent over IPv6 (16-byte addresses): traffic class 0, flow label 0,
     * hop limit 64 and the UDP checksum computed, as Linux sends it (IPv6 forbids checksum 0,
     * RFC 8200 §8.1; the ICRC masks all of these, so the recorded ICRC verifies).
     */
    public synchronized void writeIpv6(byte[] srcIp, int srcPort, byte[] dstIp, int dstPort, ByteBuffer buffer,
            int offset, int length) throws IOException {
        if (closed) {
            return;
        }
        long micros = java.time.Instant.now().toEpochMilli() * 1000 + (System.nanoTime() / 1000) % 1000;
        int ipLength = 40 + 8 + length;
        header.clear();
        header.putInt((int) (micros / 1_000_000)).putInt((int) (micros % 1_000_000)).putInt(ipLength).putInt(ipLength);
        header.order(ByteOrder.BIG_ENDIAN);
        header.putInt(0x60000000).putShort((short) (8 + length)).put((byte) 17).put((byte) 64).put(srcIp).put(dstIp);
        int udp = header.position();
        header.putShort((short) srcPort).putShort((short) dstPort).putShort((short) (8 + length)).putShort((short) 0);
        buffer.get(offset, payload, 0, length);
        header.putShort(udp + 6, (short) udp6Checksum(srcIp, dstIp, srcPort, dstPort, payload, length));
        header.order(ByteOrder.LITTLE_ENDIAN);
        out.write(header.array(), 0, header.position());
        out.write(payload, 0, length);
    }

    /** RFC 8200 §8.1: the one's-complement sum over the pseudo-header, UDP header and payload; 0 is sent as 0xFFFF. */
    static int udp6Checksum(byte[] src, byte[] dst, int srcPort, int dstPort, byte[] data, int length) {
        long sum = 0;
        for (int i = 0; i < 16; i += 2) {
            sum += (src[i] & 0xFF) << 8 | src[i + 1] & 0xFF;
            sum += (dst[i] & 0xFF) << 8 | dst[i + 1] & 0xFF;
        }
        int udpLength = 8 + length;
        sum += udpLength + 17;                                    // pseudo-header: length, next header
        sum += (srcPort & 0xFFFF) + (dstPort & 0xFFFF) + udpLength; // UDP header, checksum field 0
        for (int i = 0; i + 1 < length; i += 2) {
            sum += (data[i] & 0xFF) << 8 | data[i + 1] & 0xFF;
        }
        if ((length & 1) != 0) {
            sum += (data[length - 1] & 0xFF) << 8;
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        int c = (int) ~sum & 0xFFFF;
        return c == 0 ? 0xFFFF : c;
    }

    private static int ipv4Checksum(ByteBuffer b, int start) {
        int sum = 0;
        for (int i = 0; i < 20; i += 2) {
            sum += b.getShort(start + i) & 0xFFFF;
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return ~sum & 0xFFFF;
    }

    @Override
    public synchronized void close() throws IOException {
        closed = true;
        out.close();
    }
}
