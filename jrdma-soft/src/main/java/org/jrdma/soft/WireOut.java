package org.jrdma.soft;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.jrdma.soft.net.UdpDatagrams;
import org.jrdma.soft.stage.Gather;
import org.jrdma.soft.stage.PacketOut;
import org.jrdma.soft.stage.QpCounter;
import org.jrdma.soft.stage.TransportQp;
import org.jrdma.soft.wire.Aeth;
import org.jrdma.soft.wire.Bth;
import org.jrdma.soft.wire.Icrc;
import org.jrdma.soft.wire.ImmDt;
import org.jrdma.soft.wire.OpcodeTable;
import org.jrdma.soft.wire.Pad;

/**
 * Builds RoCEv2 packets in one reused direct buffer and sends them. The ICRC is computed for
 * the IPv4 header the kernel will write: ID 0 and DF (see {@link UdpDatagrams}), source and
 * destination addresses, UDP ports 4791 → 4791 and lengths from the packet size.
 */
final class WireOut implements PacketOut {
    private static final int MAX_PACKET = 8192;
    private static final int ACK_OPCODE = 0x11;

    private final SoftHca hca;
    private final ByteBuffer tx = ByteBuffer.allocateDirect(MAX_PACKET).order(ByteOrder.BIG_ENDIAN);
    private final MemorySegment txData = MemorySegment.ofBuffer(tx);
    private final Bth bth = new Bth();
    private final ImmDt immDt = new ImmDt();
    private final Aeth aeth = new Aeth();
    private final Icrc icrc = new Icrc();

    WireOut(SoftHca hca) {
        this.hca = hca;
    }

    @Override
    public void sendRequest(TransportQp qp, int opcode, int psn, boolean ackReq, boolean solicited, boolean withImm,
            int immData, Gather gather, long offset, int length) {
        int pad = Pad.count(length);
        bth.wrap(tx, 0).clear().opcode(opcode).se(solicited).padCount(pad).pkey(Bth.DEFAULT_PKEY)
                .destQp(qp.destQpn()).ackReq(ackReq).psn(psn);
        int pos = Bth.LENGTH;
        if (withImm) {
            immDt.wrap(tx, pos).immediate(immData);
            pos += ImmDt.LENGTH;
        }
        if (length > 0) {
            gather.copyOut(offset, txData, pos, length);
            pos += length;
        }
        for (int i = 0; i < pad; i++) {
            tx.put(pos++, (byte) 0);
        }
        transmit(qp, pos);
    }

    @Override
    public void sendAck(TransportQp qp, int syndrome, int psn, int msn) {
        bth.wrap(tx, 0).clear().opcode(ACK_OPCODE).pkey(Bth.DEFAULT_PKEY).destQp(qp.destQpn()).psn(psn);
        aeth.wrap(tx, OpcodeTable.get(ACK_OPCODE).aethOffset()).syndrome(syndrome).msn(msn);
        transmit(qp, Bth.LENGTH + Aeth.LENGTH);
    }

    /** Appends the ICRC to the {@code headersAndPayload} bytes built so far and sends the datagram. */
    private void transmit(TransportQp qp, int headersAndPayload) {
        int length = headersAndPayload + Icrc.LENGTH;
        icrc.writeIpv4(hca.localIpv4(), qp.peerIpv4(), hca.localPort(), UdpDatagrams.ROCE_PORT, tx, 0, length);
        tx.limit(length).position(0);
        try {
            hca.noteTx(); // before the send: "the first packet leaves" no earlier than this
            hca.capture(true, qp.peerIpv4(), UdpDatagrams.ROCE_PORT, tx, length);
            if (hca.datagrams().send(tx, qp.peer())) {
                qp.counters.increment(QpCounter.SENT_PACKETS);
                qp.counters.add(QpCounter.SENT_BYTES, length);
                hca.counters().increment(QpCounter.SENT_PACKETS);
                hca.counters().add(QpCounter.SENT_BYTES, length);
            } else {
                hca.counters().increment(QpCounter.TX_QUEUE_FULL);
            }
        } catch (IOException e) {
            // A send that fails is a lost packet: the transport's retransmission recovers it.
            hca.counters().increment(QpCounter.TX_ERRORS);
        } finally {
            tx.clear();
        }
    }
}
