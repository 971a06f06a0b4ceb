package org.jrdma.soft;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jrdma.soft.net.Datagrams;
import org.jrdma.soft.net.DatagramsFactory;
import org.jrdma.soft.net.UdpDatagrams;
import org.jrdma.soft.wire.Aeth;
import org.jrdma.soft.wire.AtomicAckEth;
import org.jrdma.soft.wire.AtomicEth;
import org.jrdma.soft.wire.Bth;
import org.jrdma.soft.wire.Deth;
import org.jrdma.soft.wire.Icrc;
import org.jrdma.soft.wire.Opcode;
import org.jrdma.soft.wire.OpcodeTable;
import org.jrdma.soft.wire.Pad;
import org.jrdma.soft.wire.Reth;

/**
 * The RELIABILITY-SECURITY "H3" attacker: crafts raw RoCEv2 packets (BTH, RETH, AETH,
 * AtomicETH, AtomicAckETH, DETH, CNP) and sends them from a plain UDP socket on any 127.x
 * address and port at a victim soft device, with an ICRC that is valid for that source — the
 * ICRC is a checksum, not a MAC, so an attacker can always compute it (§2.1).
 *
 * <p>It lives in jrdma-soft's test sources, not jrdma-testkit: the testkit cannot depend on
 * jrdma-soft (jrdma-soft depends on the testkit for its conformance suites), and reusing the
 * provider's own {@link Icrc} and header flyweights keeps one ICRC implementation — the wire
 * tests cross-check it against rxe's vectors ({@code IcrcCrossCheckTest}).
 */
public final class Attacker implements AutoCloseable {
    public static final int SEND_ONLY = 0x04;
    public static final int WRITE_ONLY = 0x0A;
    public static final int READ_REQUEST = 0x0C;
    public static final int READ_RESPONSE_ONLY = 0x10;
    public static final int ACKNOWLEDGE = 0x11;
    public static final int ATOMIC_ACKNOWLEDGE = 0x12;
    public static final int COMPARE_SWAP = 0x13;
    public static final int FETCH_ADD = 0x14;
    public static final int UD_SEND_ONLY = 0x64;
    /** Congestion notification packet: BTH, 16 reserved bytes, ICRC. */
    public static final int CNP = OpcodeTable.CNP;

    private final DatagramChannel channel;
    private final InetSocketAddress self;
    private final int selfIpv4;
    private final Icrc icrc = new Icrc();
    private long sent;

    private Attacker(DatagramChannel channel) throws IOException {
        this.channel = channel;
        this.self = (InetSocketAddress) channel.getLocalAddress();
        this.selfIpv4 = Ipv4.of(self.getAddress());
    }

    /** A socket on {@code ip}, on {@code port} (0: any free port). */
    public static Attacker bind(InetAddress ip, int port) throws IOException {
        return new Attacker(DatagramChannel.open().bind(new InetSocketAddress(ip, port)));
    }

    public InetSocketAddress address() {
        return self;
    }

    /** Packets sent so far. */
    public long sent() {
        return sent;
    }

    // ------------------------------------------------------------------ packets (BTH .. payload, room for the ICRC)

    /** A packet of {@code opcode} to {@code destQp} at {@code psn}, with room for its headers, payload, pad and ICRC. */
    public static ByteBuffer frame(int opcode, int destQp, int psn, boolean ackReq, int payload) {
        int headers = opcode == CNP ? Bth.LENGTH + 16 : OpcodeTable.get(opcode).headerLength();
        ByteBuffer b = ByteBuffer.allocate(headers + payload + Pad.count(payload) + Icrc.LENGTH);
        new Bth().wrap(b, 0).clear().opcode(opcode).padCount(Pad.count(payload)).pkey(Bth.DEFAULT_PKEY).destQp(destQp)
                .ackReq(ackReq).psn(psn);
        return b;
    }

    private static Opcode op(int opcode) {
        return OpcodeTable.get(opcode);
    }

    private static ByteBuffer payload(ByteBuffer b, int opcode, byte[] data) {
        b.put(op(opcode).headerLength(), data);
        return b;
    }

    public static ByteBuffer sendOnly(int destQp, int psn, byte[] data) {
        return payload(frame(SEND_ONLY, destQp, psn, true, data.length), SEND_ONLY, data);
    }

    public static ByteBuffer writeOnly(int destQp, int psn, long va, int rkey, byte[] data) {
        ByteBuffer b = frame(WRITE_ONLY, destQp, psn, true, data.length);
        new Reth().wrap(b, op(WRITE_ONLY).rethOffset()).va(va).rkey(rkey).dmaLength(data.length);
        return payload(b, WRITE_ONLY, data);
    }

    public static ByteBuffer readRequest(int destQp, int psn, long va, int rkey, int length) {
        ByteBuffer b = frame(READ_REQUEST, destQp, psn, true, 0);
        new Reth().wrap(b, op(READ_REQUEST).rethOffset()).va(va).rkey(rkey).dmaLength(length);
        return b;
    }

    /** CMP_SWAP or FETCH_ADD. */
    public static ByteBuffer atomic(int opcode, int destQp, int psn, long va, int rkey, long swapAdd, long compare) {
        ByteBuffer b = frame(opcode, destQp, psn, true, 0);
        new AtomicEth().wrap(b, op(opcode).atomicEthOffset()).va(va).rkey(rkey).swapAdd(swapAdd).compare(compare);
        return b;
    }

    /** An ACK, or a NAK with {@code syndrome} (e.g. {@link Aeth#NAK_PSN_SEQUENCE_ERROR}). */
    public static ByteBuffer ack(int destQp, int psn, int syndrome, int msn) {
        ByteBuffer b = frame(ACKNOWLEDGE, destQp, psn, false, 0);
        new Aeth().wrap(b, op(ACKNOWLEDGE).aethOffset()).syndrome(syndrome).msn(msn);
        return b;
    }

    public static ByteBuffer readResponseOnly(int destQp, int psn, int msn, byte[] data) {
        ByteBuffer b = frame(READ_RESPONSE_ONLY, destQp, psn, false, data.length);
        new Aeth().wrap(b, op(READ_RESPONSE_ONLY).aethOffset()).syndrome(Aeth.ACK_SYNDROME).msn(msn);
        return payload(b, READ_RESPONSE_ONLY, data);
    }

    public static ByteBuffer atomicAck(int destQp, int psn, int msn, long original) {
        ByteBuffer b = frame(ATOMIC_ACKNOWLEDGE, destQp, psn, false, 0);
        new Aeth().wrap(b, op(ATOMIC_ACKNOWLEDGE).aethOffset()).syndrome(Aeth.ACK_SYNDROME).msn(msn);
        new AtomicAckEth().wrap(b, op(ATOMIC_ACKNOWLEDGE).atomicAckEthOffset()).originalValue(original);
        return b;
    }

    public static ByteBuffer udSendOnly(int destQp, int qkey, int srcQp, byte[] data) {
        ByteBuffer b = frame(UD_SEND_ONLY, destQp, 0, false, data.length);
        new Deth().wrap(b, op(UD_SEND_ONLY).dethOffset()).qkey(qkey).srcQp(srcQp);
        return payload(b, UD_SEND_ONLY, data);
    }

    public static ByteBuffer cnp(int destQp) {
        return frame(CNP, destQp, 0, false, 0);
    }

    /** Sets {@code packet}'s PSN (a sweep reuses one packet). */
    public static ByteBuffer psn(ByteBuffer packet, int psn) {
        new Bth().wrap(packet, 0).psn(psn);
        return packet;
    }

    // ------------------------------------------------------------------ sending

    /**
     * Writes the ICRC for this socket's address and port and {@code victim}'s, and sends the
     * whole buffer (a captured packet replayed from here is re-checksummed the same way).
     */
    public void send(ByteBuffer packet, InetSocketAddress victim) throws IOException {
        icrc.writeIpv4(selfIpv4, Ipv4.of(victim.getAddress()), self.getPort(), UdpDatagrams.ROCE_PORT, packet, 0,
                packet.capacity());
        packet.limit(packet.capacity()).position(0);
        channel.send(packet, victim);
        packet.clear();
        sent++;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    /**
     * A passive tap on a device's socket (the on-path attacker of SEC-19): a copy of every
     * packet the device sends, in order.
     */
    public static final class Tap implements DatagramsFactory {
        public final List<byte[]> sent = new CopyOnWriteArrayList<>();

        @Override
        public Datagrams open(InetSocketAddress local) throws IOException {
            return new ForwardingDatagrams(UdpDatagrams.bind(local.getAddress(), local.getPort())) {
                @Override
                public boolean send(ByteBuffer packet, InetSocketAddress destination) throws IOException {
                    byte[] copy = new byte[packet.remaining()];
                    packet.duplicate().get(copy);
                    boolean ok = real.send(packet, destination);
                    sent.add(copy);
                    return ok;
                }
            };
        }

        /** The first captured packet with {@code opcode}, as a fresh buffer. */
        public ByteBuffer first(int opcode) {
            for (byte[] p : sent) {
                if ((p[0] & 0xFF) == opcode) {
                    return ByteBuffer.wrap(p.clone());
                }
            }
            throw new AssertionError("no packet with opcode 0x" + Integer.toHexString(opcode) + " captured");
        }
    }
}
