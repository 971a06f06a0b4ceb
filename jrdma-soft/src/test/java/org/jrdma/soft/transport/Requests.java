package org.jrdma.soft.transport;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
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
 * Received packets for stage tests, as the engine hands them to a stage: checked by
 * {@link RxPacket} (a builder mistake fails here, not in the stage) with the memory view of
 * their buffer. Payload bytes are {@code 0x5A}.
 */
final class Requests {
    static final int SEND_FIRST = 0x00;
    static final int SEND_MIDDLE = 0x01;
    static final int SEND_LAST = 0x02;
    static final int SEND_ONLY = 0x04;
    static final int RDMA_WRITE_FIRST = 0x06;
    static final int RDMA_WRITE_ONLY = 0x0A;
    static final int RDMA_WRITE_ONLY_WITH_IMM = 0x0B;
    static final int READ_REQUEST = 0x0C;
    static final int READ_RESPONSE_FIRST = 0x0D;
    static final int READ_RESPONSE_MIDDLE = 0x0E;
    static final int READ_RESPONSE_LAST = 0x0F;
    static final int READ_RESPONSE_ONLY = 0x10;
    static final int ACKNOWLEDGE = 0x11;
    static final int ATOMIC_ACKNOWLEDGE = 0x12;
    static final int COMPARE_SWAP = 0x13;
    static final int FETCH_ADD = 0x14;
    static final int SEND_ONLY_WITH_INVALIDATE = 0x17;
    /** UC opcodes are RC's plus 0x20, UD's plus 0x60. */
    static final int UC = 0x20;
    static final int UD_SEND_ONLY = 0x64;

    /** A packet as a stage receives it. */
    record Request(RxPacket pkt, MemorySegment data) {
    }

    private final int opcode;
    private final int psn;
    private int payload;
    private long va;
    private int rkey;
    private int dmaLength;
    private int imm;
    private long swapAdd;
    private long compare;
    private int qkey;
    private int srcQp;
    private int syndrome = -1;
    private int msn;
    private long original;

    private Requests(int opcode, int psn) {
        this.opcode = opcode;
        this.psn = psn;
    }

    static Requests of(int opcode, int psn) {
        return new Requests(opcode, psn);
    }

    Requests payload(int bytes) {
        payload = bytes;
        return this;
    }

    Requests reth(long va, int rkey, int dmaLength) {
        this.va = va;
        this.rkey = rkey;
        this.dmaLength = dmaLength;
        return this;
    }

    Requests atomic(long va, int rkey, long swapAdd, long compare) {
        this.va = va;
        this.rkey = rkey;
        this.swapAdd = swapAdd;
        this.compare = compare;
        return this;
    }

    /** The ImmDt's immediate or the IETH's rkey, whichever the opcode carries. */
    Requests imm(int immOrRkey) {
        imm = immOrRkey;
        return this;
    }

    Requests deth(int qkey, int srcQp) {
        this.qkey = qkey;
        this.srcQp = srcQp;
        return this;
    }

    /** For responses: the AETH (syndrome, MSN). */
    Requests aeth(int syndrome, int msn) {
        this.syndrome = syndrome;
        this.msn = msn;
        return this;
    }

    Requests original(long value) {
        original = value;
        return this;
    }

    Request build() {
        Opcode op = OpcodeTable.get(opcode);
        int length = op.headerLength() + payload + Pad.count(payload) + Icrc.LENGTH;
        ByteBuffer b = ByteBuffer.allocateDirect(length);
        for (int i = op.headerLength(); i < op.headerLength() + payload; i++) {
            b.put(i, (byte) 0x5A);
        }
        new Bth().wrap(b, 0).clear().opcode(opcode).pkey(Bth.DEFAULT_PKEY).destQp(StageQp.QPN).ackReq(true)
                .padCount(Pad.count(payload)).psn(psn);
        if (op.rethOffset() >= 0) {
            new Reth().wrap(b, op.rethOffset()).va(va).rkey(rkey).dmaLength(dmaLength);
        }
        if (op.atomicEthOffset() >= 0) {
            new AtomicEth().wrap(b, op.atomicEthOffset()).va(va).rkey(rkey).swapAdd(swapAdd).compare(compare);
        }
        if (op.immDtOffset() >= 0) {
            new ImmDt().wrap(b, op.immDtOffset()).immediate(imm);
        }
        if (op.iethOffset() >= 0) {
            new Ieth().wrap(b, op.iethOffset()).rkey(imm);
        }
        if (op.dethOffset() >= 0) {
            new Deth().wrap(b, op.dethOffset()).qkey(qkey).srcQp(srcQp);
        }
        if (op.aethOffset() >= 0) {
            new org.jrdma.soft.wire.Aeth().wrap(b, op.aethOffset()).syndrome(syndrome < 0 ? 0x1F : syndrome).msn(msn);
        }
        if (op.atomicAckEthOffset() >= 0) {
            new org.jrdma.soft.wire.AtomicAckEth().wrap(b, op.atomicAckEthOffset()).originalValue(original);
        }
        RxPacket pkt = new RxPacket();
        DropReason r = pkt.wrap(b, 0, length);
        if (r != DropReason.NONE) {
            throw new IllegalArgumentException("the receive path would drop this packet: " + r);
        }
        return new Request(pkt, MemorySegment.ofBuffer(b));
    }
}
