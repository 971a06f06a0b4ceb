package org.jrdma.soft.wire;

import java.nio.ByteBuffer;
import java.util.Random;

/** Builds well-formed RoCEv2 UDP payloads for tests: BTH, random extension headers, payload, pad, ICRC slot. */
final class TestPackets {
    /** A UDP payload inside {@code buffer} at {@code [offset, offset + length)}. */
    record Packet(ByteBuffer buffer, int offset, int length) {
    }

    private TestPackets() {
    }

    static int length(int opcode, int payloadLength) {
        return OpcodeTable.get(opcode).headerLength() + payloadLength + Pad.count(payloadLength) + Icrc.LENGTH;
    }

    /**
     * A packet of {@code opcode} with {@code payloadLength} random payload bytes, placed at
     * {@code offset} in a buffer with {@code slack} spare bytes after it; BTH fields random
     * except TVer 0 and the right pad count; the ICRC slot is zero.
     */
    static Packet build(int opcode, int payloadLength, int offset, int slack, Random random, boolean direct) {
        int length = length(opcode, payloadLength);
        ByteBuffer buffer = direct ? ByteBuffer.allocateDirect(offset + length + slack)
                : ByteBuffer.allocate(offset + length + slack);
        for (int i = 0; i < buffer.capacity(); i++) {
            buffer.put(i, (byte) random.nextInt());
        }
        Opcode op = OpcodeTable.get(opcode);
        new Bth().wrap(buffer, offset).clear()
                .opcode(opcode)
                .se(random.nextBoolean())
                .migReq(random.nextBoolean())
                .padCount(Pad.count(payloadLength))
                .pkey(random.nextBoolean() ? Bth.DEFAULT_PKEY : random.nextInt(0x10000))
                .fecn(random.nextBoolean())
                .becn(random.nextBoolean())
                .destQp(random.nextInt(1 << 24))
                .ackReq(random.nextBoolean())
                .psn(random.nextInt(1 << 24));
        int padAt = offset + op.headerLength() + payloadLength;
        for (int i = 0; i < Pad.count(payloadLength); i++) {
            buffer.put(padAt + i, (byte) 0);
        }
        Icrc.store(buffer, offset, length, 0);
        return new Packet(buffer, offset, length);
    }

    static Packet build(int opcode, int payloadLength, Random random) {
        return build(opcode, payloadLength, 0, 0, random, false);
    }

    /** Payload lengths this opcode allows: none, a multiple of 4 for FIRST/MIDDLE, anything for LAST/ONLY. */
    static int payloadFor(Opcode op, Random random, int max) {
        if (!op.hasPayload()) {
            return 0;
        }
        int n = random.nextInt(max + 1);
        return op.position().isEnd() ? n : n & ~3;
    }
}
