package org.jrdma.soft.transport;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.soft.memory.Gather;
import org.jrdma.soft.wire.Aeth;
import org.jrdma.soft.wire.AtomicAckEth;
import org.jrdma.soft.wire.AtomicEth;
import org.jrdma.soft.wire.Bth;
import org.jrdma.soft.wire.Deth;
import org.jrdma.soft.wire.DropReason;
import org.jrdma.soft.wire.Icrc;
import org.jrdma.soft.wire.Ieth;
import org.jrdma.soft.wire.ImmDt;
import org.jrdma.soft.wire.Opcode;
import org.jrdma.soft.wire.OpcodeTable;
import org.jrdma.soft.wire.Pad;
import org.jrdma.soft.wire.Reth;
import org.jrdma.soft.wire.RxPacket;

/**
 * The wire for stage tests (Aeron's SenderTest idea): every packet a stage sends is written
 * out as RoCEv2 bytes — BTH, the extension headers its opcode carries, payload, pad, an ICRC
 * slot left zero — and kept, so a test decodes exactly what would have gone on the wire with
 * the receive path's own {@link RxPacket}.
 */
final class FakePort implements PacketOut {
    private static final int ACKNOWLEDGE = 0x11;
    private static final int ATOMIC_ACKNOWLEDGE = 0x12;
    private static final int READ_REQUEST = 0x0C;

    private final List<ByteBuffer> sent = new ArrayList<>();
    private final Bth bth = new Bth();

    /** The packets sent so far, decoded (each its own RxPacket). */
    List<RxPacket> packets() {
        List<RxPacket> all = new ArrayList<>();
        for (ByteBuffer b : sent) {
            RxPacket p = new RxPacket();
            DropReason r = p.wrap(b, 0, b.capacity());
            if (r != DropReason.NONE) {
                throw new AssertionError("a stage sent a malformed packet: " + r);
            }
            all.add(p);
        }
        return all;
    }

    /** Takes (removes) the packets sent so far, decoded. */
    List<RxPacket> drain() {
        List<RxPacket> all = packets();
        sent.clear();
        return all;
    }

    private ByteBuffer begin(TransportQp qp, int opcode, int psn, boolean ackReq, boolean solicited, int payload) {
        Opcode op = OpcodeTable.get(opcode);
        ByteBuffer b = ByteBuffer.allocate(op.headerLength() + payload + Pad.count(payload) + Icrc.LENGTH);
        bth.wrap(b, 0).clear().opcode(opcode).pkey(Bth.DEFAULT_PKEY).destQp(qp.attr.destQpn).ackReq(ackReq).se(solicited)
                .padCount(Pad.count(payload)).psn(psn);
        sent.add(b);
        return b;
    }

    @Override
    public void sendData(TransportQp qp, int opcode, int psn, boolean ackReq, boolean solicited, long va, int rkey,
            int dmaLength, int immData, Gather gather, long offset, int length) {
        ByteBuffer b = begin(qp, opcode, psn, ackReq, solicited, length);
        Opcode op = OpcodeTable.get(opcode);
        if (op.rethOffset() >= 0) {
            new Reth().wrap(b, op.rethOffset()).va(va).rkey(rkey).dmaLength(dmaLength);
        }
        if (op.immDtOffset() >= 0) {
            new ImmDt().wrap(b, op.immDtOffset()).immediate(immData);
        }
        if (op.iethOffset() >= 0) {
            new Ieth().wrap(b, op.iethOffset()).rkey(immData);
        }
        if (length > 0) {
            gather.copyOut(offset, MemorySegment.ofBuffer(b), op.headerLength(), length);
        }
    }

    @Override
    public void sendUd(TransportQp qp, UdDestination dest, int destQpn, int qkey, int opcode, int psn, boolean solicited,
            int immData, Gather gather, int length) {
        ByteBuffer b = begin(qp, opcode, psn, false, solicited, length);
        bth.wrap(b, 0).destQp(destQpn);
        Opcode op = OpcodeTable.get(opcode);
        new Deth().wrap(b, op.dethOffset()).qkey(qkey).srcQp(qp.qpn);
        if (op.immDtOffset() >= 0) {
            new ImmDt().wrap(b, op.immDtOffset()).immediate(immData);
        }
        if (length > 0) {
            gather.copyOut(0, MemorySegment.ofBuffer(b), op.headerLength(), length);
        }
    }

    @Override
    public void sendReadRequest(TransportQp qp, int psn, long va, int rkey, int length) {
        ByteBuffer b = begin(qp, READ_REQUEST, psn, true, false, 0);
        new Reth().wrap(b, OpcodeTable.get(READ_REQUEST).rethOffset()).va(va).rkey(rkey).dmaLength(length);
    }

    @Override
    public void sendAtomic(TransportQp qp, int opcode, int psn, long va, int rkey, long swapAdd, long compare) {
        ByteBuffer b = begin(qp, opcode, psn, true, false, 0);
        new AtomicEth().wrap(b, OpcodeTable.get(opcode).atomicEthOffset()).va(va).rkey(rkey).swapAdd(swapAdd)
                .compare(compare);
    }

    @Override
    public void sendReadResponse(TransportQp qp, int opcode, int psn, int msn, MemorySegment src, long srcOffset,
            int length) {
        ByteBuffer b = begin(qp, opcode, psn, false, false, length);
        Opcode op = OpcodeTable.get(opcode);
        if (op.aethOffset() >= 0) {
            new Aeth().wrap(b, op.aethOffset()).syndrome(Aeth.ACK_SYNDROME).msn(msn);
        }
        if (length > 0) {
            MemorySegment.copy(src, srcOffset, MemorySegment.ofBuffer(b), op.headerLength(), length);
        }
    }

    @Override
    public void sendAtomicAck(TransportQp qp, int psn, int msn, long original) {
        ByteBuffer b = begin(qp, ATOMIC_ACKNOWLEDGE, psn, false, false, 0);
        Opcode op = OpcodeTable.get(ATOMIC_ACKNOWLEDGE);
        new Aeth().wrap(b, op.aethOffset()).syndrome(Aeth.ACK_SYNDROME).msn(msn);
        new AtomicAckEth().wrap(b, op.atomicAckEthOffset()).originalValue(original);
    }

    @Override
    public void sendAck(TransportQp qp, int syndrome, int psn, int msn) {
        ByteBuffer b = begin(qp, ACKNOWLEDGE, psn, false, false, 0);
        new Aeth().wrap(b, OpcodeTable.get(ACKNOWLEDGE).aethOffset()).syndrome(syndrome).msn(msn);
    }
}
