package org.jrdma.soft;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import org.jrdma.soft.engine.SoftHca;
import org.jrdma.soft.wire.Bth;
import org.jrdma.soft.wire.Icrc;
import org.jrdma.soft.wire.OpcodeTable;

/**
 * Hand-made RoCEv2 packets for the receive-path tests (the H3 attacker of RELIABILITY-SECURITY
 * §6): a BTH with chosen fields, zeroed extension headers, {@code payload} bytes of 0x5A, the
 * pad the BTH claims, and an ICRC valid for a given source, unless a test breaks it on purpose.
 */
final class Forge {
    private Forge() {
    }

    /** A packet of {@code opcode} to {@code destQp} at {@code psn}, payload and pad as given, ICRC slot zero. */
    static ByteBuffer packet(int opcode, int destQp, int psn, int payload, int pad) {
        int headers = OpcodeTable.get(opcode).isKnown() ? OpcodeTable.get(opcode).headerLength() : Bth.LENGTH;
        ByteBuffer pkt = ByteBuffer.allocateDirect(headers + payload + pad + Icrc.LENGTH);
        for (int i = headers; i < headers + payload; i++) {
            pkt.put(i, (byte) 0x5A);
        }
        new Bth().wrap(pkt, 0).clear().opcode(opcode).pkey(Bth.DEFAULT_PKEY).destQp(destQp).ackReq(true).padCount(pad).psn(psn);
        return pkt;
    }

    /** Writes the ICRC the receiver will expect from {@code src} (IPv4 ID 0, as our devices send). */
    static ByteBuffer sign(ByteBuffer pkt, InetSocketAddress src, InetSocketAddress dst) {
        new Icrc().writeIpv4(Ipv4.of(src.getAddress()), Ipv4.of(dst.getAddress()), src.getPort(), dst.getPort(),
                pkt, 0, pkt.capacity());
        return pkt;
    }

    /**
     * Sends {@code pkt}, signed, from the device's own socket to itself: the source is exactly
     * the address of every QP's peer in an {@link RcPair} (one device), so whatever source
     * pinning is in force, the packet is judged on its headers alone.
     */
    static void fromPeer(SoftHca hca, ByteBuffer pkt) {
        sign(pkt, hca.localAddress(), hca.localAddress());
        raw(hca, pkt);
    }

    /** Sends {@code pkt} exactly as it is from the device's own socket (no ICRC written). */
    static void raw(SoftHca hca, ByteBuffer pkt) {
        try {
            pkt.clear();
            hca.datagrams().send(pkt, hca.localAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
