package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import org.jrdma.soft.wire.Bth;
import org.jrdma.soft.wire.DropReason;
import org.jrdma.soft.wire.Icrc;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpState;
import org.junit.jupiter.api.Test;

/**
 * Bad input is dropped and counted, and changes nothing (RELIABILITY-SECURITY REL-03/04,
 * SEC-11): runts, unknown QPNs, and a well-formed SEND at the right PSN from a foreign address.
 */
class ReceiveValidationTest {
    private static final Duration DEADLINE = Duration.ofSeconds(10);

    @Test
    void runtsUnknownQpnsAndForeignSourcesAreDroppedAndCounted() throws Exception {
        SoftDevice dev = FreshDevices.fresh("rxval");
        SoftDevice other = FreshDevices.fresh("rxval_attacker");
        InetAddress attackerIp = other.spec().address(); // a free 127.77.x.y, never connected to b
        try (RcPair p = new RcPair(dev, Mtu.MTU_1024, 14, 7, 7, 12, 4096);
             DatagramChannel attacker = DatagramChannel.open().bind(new InetSocketAddress(attackerIp, 0))) {
            p.postRecv(1, 0, 64);
            InetSocketAddress target = p.hca().localAddress();
            int attackerIpv4 = Ipv4.of(attackerIp);

            attacker.send(ByteBuffer.wrap(new byte[7]), target); // shorter than a BTH
            attacker.send(sendOnly(p.b.qpNum() ^ 0x5A5A5A, 0x10, attackerIpv4, attacker, target), target);
            attacker.send(sendOnly(p.b.qpNum(), 0x10, attackerIpv4, attacker, target), target); // right QPN and PSN

            RcPair.await(() -> p.hca().drops(DropReason.RUNT) == 1 && p.hca().drops(DropReason.UNKNOWN_QPN) == 1
                    && p.hca().drops(DropReason.WRONG_SOURCE) == 1, DEADLINE, "three counted drops");
            // Nothing was delivered: the receive is still posted and b is still connected.
            assertThat(RcPair.poll(p.cqB, 1, Duration.ofMillis(100))).isEmpty();
            assertThat(p.b.state()).isEqualTo(QpState.RTS);
            // The genuine peer still gets through with the same PSN.
            p.send(9, 0, 64);
            assertThat(RcPair.poll(p.cqB, 1, DEADLINE)).singleElement().satisfies(wc -> assertThat(wc.wrId).isEqualTo(1));
        }
    }

    /** A well-formed RC SEND_ONLY with a valid ICRC for the attacker's own address and port. */
    private static ByteBuffer sendOnly(int destQp, int psn, int srcIp, DatagramChannel from, InetSocketAddress to)
            throws Exception {
        ByteBuffer pkt = ByteBuffer.allocate(12 + 64 + 4);
        new Bth().wrap(pkt, 0).clear().opcode(0x04).pkey(0xFFFF).destQp(destQp).ackReq(true).psn(psn);
        int srcPort = ((InetSocketAddress) from.getLocalAddress()).getPort();
        new Icrc().writeIpv4(srcIp, Ipv4.of(to.getAddress()), srcPort, 4791, pkt, 0, pkt.capacity());
        return pkt;
    }
}
