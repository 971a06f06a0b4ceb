package org.jrdma.soft.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/** How a {@link TxBatch} groups packets into GSO runs (and the IDs it promises), and how an {@link RxBatch} walks a GRO read. */
class BatchesTest {
    private static final RoceEndpoint A = RoceEndpoint.of(new InetSocketAddress("127.0.0.2", 4791));
    private static final RoceEndpoint B = RoceEndpoint.of(new InetSocketAddress("127.0.0.3", 4791));

    @Test
    void equalPacketsToOnePeerFormOneRunNumberedFromZeroAndAShorterOneEndsIt() {
        TxBatch b = new TxBatch(1 << 20, true);
        assertThat(b.add(A, 1040)).isZero();
        assertThat(b.nextId(A, 1040)).isEqualTo(1);
        assertThat(b.add(A, 1040)).isEqualTo(1);
        assertThat(b.add(A, 1040)).isEqualTo(2);
        assertThat(b.add(A, 300)).as("a shorter last segment joins").isEqualTo(3);
        assertThat(b.add(A, 300)).as("and ends the run").isZero();
        assertThat(b.add(B, 300)).as("another peer, another message").isZero();
        assertThat(b.add(B, 1040)).as("a longer packet, another message").isZero();
        assertThat(b.add(B, 1052)).isZero();
        assertThat(b.add(B, 1040)).as("a FIRST (with its RETH) takes the next MIDDLE as its shorter last").isEqualTo(1);
        assertThat(b.messages()).isEqualTo(5);
        assertThat(b.messagePackets(0)).isEqualTo(4);
        assertThat(b.messageSegment(0)).isEqualTo(1040);
        assertThat(b.messageBytes(0)).isEqualTo(3 * 1040 + 300);
        assertThat(b.messageSegment(2)).as("a packet alone is sent without UDP_SEGMENT").isZero();
        assertThat(b.offset(2)).isEqualTo(2 * 1040);
        assertThat(b.count()).isEqualTo(9);
    }

    @Test
    void aRunStopsAtSixtyFourSegmentsAndAtTheSizeOfOneUdpDatagram() {
        TxBatch b = new TxBatch(1 << 20, true);
        for (int i = 0; i < 64; i++) {
            assertThat(b.add(A, 200)).isEqualTo(i % TxBatch.MAX_SEGMENTS);
        }
        assertThat(b.messages()).isEqualTo(1);
        TxBatch big = new TxBatch(1 << 20, true);
        int ids = 0;
        while (big.add(A, 4112) != 0 || ids == 0) {
            ids++;
        }
        assertThat(ids).as("segments of 4112 B in 65,000 B").isEqualTo(65_000 / 4112);
    }

    @Test
    void withoutSegmentsEveryPacketIsItsOwnMessageWithIdZero() {
        TxBatch b = new TxBatch(1 << 16, false);
        assertThat(b.add(A, 100)).isZero();
        assertThat(b.add(A, 100)).isZero();
        assertThat(b.messages()).isEqualTo(2);
        TxBatch s = new TxBatch(1 << 16, true);
        s.add(A, 100);
        s.stopSegmenting();
        assertThat(s.add(A, 100)).isZero();
        assertThat(s.messages()).isEqualTo(2);
    }

    @Test
    void theBatchIsFullAtSixtyFourPacketsOrItsCapacity() {
        TxBatch b = new TxBatch(1000, true);
        assertThat(b.hasRoom(1000)).isTrue();
        b.add(A, 600);
        assertThat(b.hasRoom(600)).isFalse();
        b.clear();
        assertThat(b.count()).isZero();
        assertThat(b.tail()).isZero();
        assertThat(b.add(A, 600)).isZero();
    }

    @Test
    void aCoalescedReadIsWalkedSegmentBySegment() {
        RxBatch r = new RxBatch(4, 65_535);
        r.clear();
        r.read(0, 5300, A.socketAddress(), 1000);
        r.read(1, 64, B.socketAddress(), 0);
        assertThat(r.reads()).isEqualTo(2);
        assertThat(r.datagrams(0)).isEqualTo(6);
        assertThat(r.datagramOffset(0, 5)).isEqualTo(5000);
        assertThat(r.datagramLength(0, 4)).isEqualTo(1000);
        assertThat(r.datagramLength(0, 5)).isEqualTo(300);
        assertThat(r.datagrams(1)).isEqualTo(1);
        assertThat(r.datagramOffset(1, 0)).isEqualTo(65_535);
        assertThat(r.datagramLength(1, 0)).isEqualTo(64);
        r.read(2, 800, A.socketAddress(), 1000);
        assertThat(r.datagrams(2)).as("a read shorter than its segment size is one datagram").isEqualTo(1);
    }
}
