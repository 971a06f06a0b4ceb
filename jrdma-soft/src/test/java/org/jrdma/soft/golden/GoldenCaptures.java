package org.jrdma.soft.golden;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rxe conformance captures in src/test/resources/org/jrdma/soft/golden (copied from the lab's
 * shared/conformance/rxe; real Linux rxe traffic, Ethernet pcaps), read with a tiny independent
 * pcap reader, plus INDEX.md's expected tallies. Test code only.
 */
final class GoldenCaptures {
    static final int ROCE_PORT = 4791;
    /**
     * The capture whose datagrams to 4791 are not RoCEv2: "probe\n" and "guest-probe\n" sent to
     * test the path; INDEX.md counts 0 RoCEv2 frames there.
     */
    static final String PROBES = "host_udp_probe";
    /** host_rc_pingpong's host end: sends IPv4 ID 0 with DF from port 4791, as jrdma's WireOut does. */
    static final int HOST_IP = 0x0A4D0001;

    /** One RoCEv2 frame: the capture, its 1-based frame number, and its IPv4 packet (big-endian, position 0). */
    record Frame(String capture, int number, ByteBuffer ip) {
        int srcIp() {
            return ip.getInt(12);
        }

        int dstIp() {
            return ip.getInt(16);
        }

        int ipId() {
            return ip.getShort(4) & 0xFFFF;
        }

        int ipFlags() {
            return ip.getShort(6) & 0xFFFF;
        }

        int srcPort() {
            return ip.getShort(20) & 0xFFFF;
        }

        int dstPort() {
            return ip.getShort(22) & 0xFFFF;
        }

        /** Offset of the UDP payload (the BTH) in {@link #ip}. */
        int udpPayload() {
            return 28;
        }

        int udpPayloadLength() {
            return (ip.getShort(24) & 0xFFFF) - 8;
        }

        /** A fresh copy of the UDP payload, big-endian, what a UDP socket would hand us. */
        ByteBuffer payloadCopy() {
            ByteBuffer b = ByteBuffer.allocate(udpPayloadLength());
            b.put(0, ip, udpPayload(), udpPayloadLength());
            return b;
        }
    }

    /** A row of INDEX.md. */
    record IndexRow(String capture, int frames, int roceFrames, Map<Integer, Integer> opcodeCounts, int madCount) {
    }

    private GoldenCaptures() {
    }

    static byte[] resource(String name) {
        try (InputStream in = GoldenCaptures.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String text(String name) {
        return new String(resource(name), StandardCharsets.UTF_8);
    }

    /** Every record of a classic little-endian microsecond pcap with LINKTYPE_ETHERNET, as raw frames. */
    static List<ByteBuffer> ethernetFrames(String capture) {
        ByteBuffer b = ByteBuffer.wrap(resource(capture + ".pcap")).order(ByteOrder.LITTLE_ENDIAN);
        if (b.getInt(0) != 0xa1b2c3d4 || b.getInt(20) != 1) {
            throw new IllegalStateException(capture + ": not a little-endian Ethernet pcap");
        }
        List<ByteBuffer> out = new ArrayList<>();
        int pos = 24;
        while (pos + 16 <= b.limit()) {
            int incl = b.getInt(pos + 8);
            int orig = b.getInt(pos + 12);
            if (incl != orig) {
                throw new IllegalStateException(capture + ": truncated record at " + pos);
            }
            ByteBuffer rec = ByteBuffer.allocate(incl);
            rec.put(0, b, pos + 16, incl);
            out.add(rec);
            pos += 16 + incl;
        }
        if (pos != b.limit()) {
            throw new IllegalStateException(capture + ": trailing bytes");
        }
        return out;
    }

    /** The RoCEv2 frames (IPv4, no options, UDP to 4791) of a capture, with their frame numbers. */
    static List<Frame> roceFrames(String capture) {
        List<Frame> out = new ArrayList<>();
        List<ByteBuffer> frames = ethernetFrames(capture);
        for (int i = 0; i < frames.size(); i++) {
            ByteBuffer eth = frames.get(i);
            if (eth.limit() < 14 + 28 || (eth.getShort(12) & 0xFFFF) != 0x0800) {
                continue;
            }
            int totalLength = eth.getShort(14 + 2) & 0xFFFF;
            ByteBuffer ip = ByteBuffer.allocate(totalLength);
            ip.put(0, eth, 14, totalLength);
            if ((ip.get(0) & 0xFF) != 0x45 || ip.get(9) != 17 || (ip.getShort(22) & 0xFFFF) != ROCE_PORT) {
                continue;
            }
            out.add(new Frame(capture, i + 1, ip));
        }
        return out;
    }

    private static final Pattern ROW = Pattern.compile(
            "^\\| (\\w+) \\| (\\d+) \\| (\\d+) \\| \\d+ \\| [^|]+ \\| (.*) \\|$");
    private static final Pattern OPCODE = Pattern.compile("0x([0-9a-f]{2}) (\\w+)( \\(QP1/MAD\\))? x(\\d+)");

    /** INDEX.md's table, in its order. */
    static List<IndexRow> index() {
        List<IndexRow> rows = new ArrayList<>();
        for (String line : text("INDEX.md").split("\n")) {
            Matcher m = ROW.matcher(line.strip());
            if (!m.matches()) {
                continue;
            }
            Map<Integer, Integer> counts = new LinkedHashMap<>();
            int mads = 0;
            Matcher o = OPCODE.matcher(m.group(4));
            while (o.find()) {
                int code = Integer.parseInt(o.group(1), 16);
                int n = Integer.parseInt(o.group(4));
                counts.merge(code, n, Integer::sum);
                if (o.group(3) != null) {
                    mads += n;
                }
            }
            rows.add(new IndexRow(m.group(1), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)), counts,
                    mads));
        }
        return rows;
    }

    /** The RoCEv2 packets of every capture but {@link #PROBES}, in INDEX.md's order. */
    static List<Frame> allRoce() {
        List<Frame> out = new ArrayList<>();
        for (IndexRow row : index()) {
            if (!row.capture().equals(PROBES)) {
                out.addAll(roceFrames(row.capture()));
            }
        }
        return out;
    }

    /** Whether the packet was sent like jrdma sends (ID 0, DF, source port 4791), not by rxe. */
    static boolean sentByHost(Frame f) {
        return f.srcIp() == HOST_IP && f.capture().equals("host_rc_pingpong");
    }

    static String hex(ByteBuffer b, int from, int to) {
        StringBuilder s = new StringBuilder();
        for (int i = from; i < to; i++) {
            s.append(String.format("%02x", b.get(i) & 0xFF));
        }
        return s.toString();
    }
}
