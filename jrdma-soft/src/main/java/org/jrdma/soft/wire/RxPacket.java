package org.jrdma.soft.wire;

import java.nio.ByteBuffer;

/**
 * A received RoCEv2 UDP payload, checked and taken apart without exceptions or allocation: wrap
 * it, read the {@link DropReason}, and on {@link DropReason#NONE} use the opcode row, the
 * pre-wrapped header flyweights and the payload bounds. One instance is reused for every
 * datagram (Aeron's receive loop does the same with its flyweights).
 *
 * <p>Checks, in rxe's order where rxe has one (ROCEV2-FACTS §1.10, rxe_recv.c {@code hdr_check}):
 * <ol>
 *   <li>at least a BTH, else {@link DropReason#RUNT};</li>
 *   <li>TVer 0, else {@link DropReason#BAD_TVER};</li>
 *   <li>a known opcode ({@link DropReason#UNKNOWN_OPCODE}) that the provider handles
 *       ({@link DropReason#UNSUPPORTED_OPCODE}, i.e. CNP);</li>
 *   <li>room for the opcode's headers and the ICRC, else {@link DropReason#RUNT};</li>
 *   <li>{@link DropReason#BAD_LENGTH} if the pad does not fit (payload would be negative), if a
 *       FIRST/MIDDLE packet has pad (only the last packet of a message can be short, §1.7), or if
 *       an opcode without payload (READ request, ACK, atomics) carries bytes after its headers.</li>
 * </ol>
 * The ICRC is checked separately ({@link #verifyIcrcIpv4}), after the cheap checks, because it
 * needs the addresses and it costs a pass over the payload.
 */
public final class RxPacket {
    private static final Opcode NOT_PARSED = OpcodeTable.get(-1);

    private final Bth bth = new Bth();
    private final Reth reth = new Reth();
    private final Aeth aeth = new Aeth();
    private final ImmDt immDt = new ImmDt();
    private final Ieth ieth = new Ieth();
    private final Deth deth = new Deth();
    private final AtomicEth atomicEth = new AtomicEth();
    private final AtomicAckEth atomicAckEth = new AtomicAckEth();

    private ByteBuffer buffer;
    private int offset;
    private int length;
    private DropReason status = DropReason.RUNT;
    private Opcode opcode = NOT_PARSED;
    private int padCount;
    private int payloadLength;

    /**
     * Checks the UDP payload {@code buffer[offset, offset + length)} (BTH through ICRC) and, if it
     * is well formed, wraps the flyweights of the headers its opcode carries.
     *
     * @return {@link DropReason#NONE} or why the packet must be dropped
     * @throws IllegalArgumentException if the range is not inside the buffer (a caller bug, not a bad packet)
     */
    public DropReason wrap(ByteBuffer buffer, int offset, int length) {
        if (offset < 0 || length < 0 || offset > buffer.limit() - length) {
            throw new IllegalArgumentException("range [" + offset + ", +" + length + ") outside the buffer");
        }
        this.buffer = HeaderFlyweight.requireBigEndian(buffer);
        this.offset = offset;
        this.length = length;
        this.opcode = NOT_PARSED;
        this.padCount = 0;
        this.payloadLength = 0;
        this.status = parse();
        return status;
    }

    private DropReason parse() {
        if (length < Bth.LENGTH) {
            return DropReason.RUNT;
        }
        bth.wrap(buffer, offset);
        if (bth.tver() != 0) {
            return DropReason.BAD_TVER;
        }
        Opcode op = OpcodeTable.get(bth.opcode());
        opcode = op;
        if (!op.isKnown()) {
            return DropReason.UNKNOWN_OPCODE;
        }
        if (!op.isSupported()) {
            return DropReason.UNSUPPORTED_OPCODE;
        }
        if (length < op.headerLength() + Icrc.LENGTH) {
            return DropReason.RUNT;
        }
        int pad = bth.padCount();
        int payload = length - op.headerLength() - pad - Icrc.LENGTH;
        if (payload < 0) {
            return DropReason.BAD_LENGTH;
        }
        if (pad != 0 && !op.position().isEnd()) {
            return DropReason.BAD_LENGTH;
        }
        if (!op.hasPayload() && payload + pad != 0) {
            return DropReason.BAD_LENGTH;
        }
        padCount = pad;
        payloadLength = payload;
        wrapExtHeaders(op);
        return DropReason.NONE;
    }

    private void wrapExtHeaders(Opcode op) {
        if (op.rethOffset() >= 0) {
            reth.wrap(buffer, offset + op.rethOffset());
        }
        if (op.aethOffset() >= 0) {
            aeth.wrap(buffer, offset + op.aethOffset());
        }
        if (op.immDtOffset() >= 0) {
            immDt.wrap(buffer, offset + op.immDtOffset());
        }
        if (op.iethOffset() >= 0) {
            ieth.wrap(buffer, offset + op.iethOffset());
        }
        if (op.dethOffset() >= 0) {
            deth.wrap(buffer, offset + op.dethOffset());
        }
        if (op.atomicEthOffset() >= 0) {
            atomicEth.wrap(buffer, offset + op.atomicEthOffset());
        }
        if (op.atomicAckEthOffset() >= 0) {
            atomicAckEth.wrap(buffer, offset + op.atomicAckEthOffset());
        }
    }

    /** The result of the last {@link #wrap}. */
    public DropReason status() {
        return status;
    }

    public boolean isValid() {
        return status == DropReason.NONE;
    }

    public ByteBuffer buffer() {
        return buffer;
    }

    /** Where the BTH starts in {@link #buffer()}. */
    public int offset() {
        return offset;
    }

    /** The UDP payload length: BTH through ICRC. */
    public int length() {
        return length;
    }

    /**
     * The opcode row; meaningful once the BTH was readable (also after BAD_LENGTH, a RUNT past
     * the BTH, or UNKNOWN/UNSUPPORTED_OPCODE), an unknown row with code -1 otherwise.
     */
    public Opcode opcode() {
        return opcode;
    }

    /** The BTH; readable whenever {@link #length()} ≥ 12, even if the packet was dropped. */
    public Bth bth() {
        return bth;
    }

    public Reth reth() {
        return header(reth, ExtHeader.RETH);
    }

    public Aeth aeth() {
        return header(aeth, ExtHeader.AETH);
    }

    public ImmDt immDt() {
        return header(immDt, ExtHeader.IMM_DT);
    }

    public Ieth ieth() {
        return header(ieth, ExtHeader.IETH);
    }

    public Deth deth() {
        return header(deth, ExtHeader.DETH);
    }

    public AtomicEth atomicEth() {
        return header(atomicEth, ExtHeader.ATOMIC_ETH);
    }

    public AtomicAckEth atomicAckEth() {
        return header(atomicAckEth, ExtHeader.ATOMIC_ACK_ETH);
    }

    /** Absolute index of the first payload byte in {@link #buffer()}. */
    public int payloadOffset() {
        return offset + opcode.headerLength();
    }

    /** Payload bytes, without pad and ICRC: UDP payload − headers − pad − 4. */
    public int payloadLength() {
        return payloadLength;
    }

    public int padCount() {
        return padCount;
    }

    /** Absolute index of the 4 ICRC bytes in {@link #buffer()}. */
    public int icrcOffset() {
        return offset + length - Icrc.LENGTH;
    }

    /** The ICRC as received (the value CRC32 would compute), decoded least-significant byte first. */
    public int storedIcrc() {
        return Icrc.stored(buffer, offset, length);
    }

    /** {@link DropReason#NONE} if the ICRC verifies for these IPv4 addresses and ports, else BAD_ICRC. */
    public DropReason verifyIcrcIpv4(IcrcVerifier verifier, int srcIp, int dstIp, int srcPort, int dstPort) {
        return verifier.verifyIpv4(srcIp, dstIp, srcPort, dstPort, buffer, offset, length)
                ? DropReason.NONE : DropReason.BAD_ICRC;
    }

    public DropReason verifyIcrcIpv6(IcrcVerifier verifier, byte[] srcIp, byte[] dstIp, int srcPort, int dstPort) {
        return verifier.verifyIpv6(srcIp, dstIp, srcPort, dstPort, buffer, offset, length)
                ? DropReason.NONE : DropReason.BAD_ICRC;
    }

    @Override
    public String toString() {
        return PacketDump.describe(this);
    }

    private <T> T header(T flyweight, ExtHeader header) {
        if (status != DropReason.NONE || !opcode.has(header)) {
            throw new IllegalStateException(opcode.name() + " (" + status + ") carries no " + header);
        }
        return flyweight;
    }
}
