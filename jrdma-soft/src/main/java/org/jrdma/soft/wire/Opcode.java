package org.jrdma.soft.wire;

import java.util.Arrays;

/**
 * What one BTH opcode means on the wire: one row of the opcode table (ROCEV2-FACTS §1.4, laid
 * out like rxe's {@code rxe_opcode.c}). It says which extension headers follow the BTH and at
 * which offsets, how long the headers are, whether a payload follows, and what the packet does
 * to the responder's receive queue. Instances are immutable and shared; get them from
 * {@link OpcodeTable#get(int)}.
 *
 * <p>Offsets are counted from the first byte of the BTH; an absent header has offset -1.
 */
public final class Opcode {
    static final int PAYLOAD = 1;
    static final int CONSUMES_RWQE = 2;
    static final int COMPLETES_RWQE = 4;

    private final int code;
    private final String name;
    private final Transport transport;
    private final Operation operation;
    private final Position position;
    private final int flags;
    private final int extHeaderMask;
    private final int[] offsets = new int[ExtHeader.values().length];
    private final int rethOffset;
    private final int aethOffset;
    private final int immDtOffset;
    private final int iethOffset;
    private final int dethOffset;
    private final int atomicEthOffset;
    private final int atomicAckEthOffset;
    private final int headerLength;

    /**
     * @param reservedLength bytes after the extension headers that belong to the header, not to
     *                       the payload (a CNP's 16 reserved bytes)
     * @param headers        the extension headers in wire order
     */
    Opcode(int code, String name, Operation operation, Position position, int flags, int reservedLength,
            ExtHeader... headers) {
        this.code = code;
        this.name = name;
        this.transport = Transport.of(code);
        this.operation = operation;
        this.position = position;
        this.flags = flags;
        Arrays.fill(offsets, -1);
        int at = Bth.LENGTH;
        int mask = 0;
        for (ExtHeader header : headers) {
            offsets[header.ordinal()] = at;
            at += header.length();
            mask |= header.bit();
        }
        this.extHeaderMask = mask;
        this.headerLength = at + reservedLength;
        this.rethOffset = offsets[ExtHeader.RETH.ordinal()];
        this.aethOffset = offsets[ExtHeader.AETH.ordinal()];
        this.immDtOffset = offsets[ExtHeader.IMM_DT.ordinal()];
        this.iethOffset = offsets[ExtHeader.IETH.ordinal()];
        this.dethOffset = offsets[ExtHeader.DETH.ordinal()];
        this.atomicEthOffset = offsets[ExtHeader.ATOMIC_ETH.ordinal()];
        this.atomicAckEthOffset = offsets[ExtHeader.ATOMIC_ACK_ETH.ordinal()];
    }

    static Opcode unknown(int code) {
        return new Opcode(code, String.format("UNKNOWN_0x%02X", code), Operation.UNKNOWN, Position.ONLY, 0, 0);
    }

    /** The opcode byte, 0..255. */
    public int code() {
        return code;
    }

    /** rxe/Wireshark-style name, e.g. {@code RC_SEND_FIRST}; {@code UNKNOWN_0x15} for a reserved byte. */
    public String name() {
        return name;
    }

    public Transport transport() {
        return transport;
    }

    public Operation operation() {
        return operation;
    }

    public Position position() {
        return position;
    }

    /** False for reserved and unimplemented opcodes (RD, FLUSH, ATOMIC_WRITE, vendor). */
    public boolean isKnown() {
        return operation != Operation.UNKNOWN;
    }

    /** Known and handled by the soft provider: every RC, UC and UD opcode; not CNP. */
    public boolean isSupported() {
        return isKnown() && operation != Operation.CNP;
    }

    public boolean isRequest() {
        return operation.isRequest();
    }

    public boolean isResponse() {
        return operation.isResponse();
    }

    public boolean hasImmediate() {
        return immDtOffset >= 0;
    }

    public boolean hasInvalidate() {
        return iethOffset >= 0;
    }

    /** Bit {@link ExtHeader#bit()} is set for each extension header present. */
    public int extHeaderMask() {
        return extHeaderMask;
    }

    public boolean has(ExtHeader header) {
        return (extHeaderMask & header.bit()) != 0;
    }

    /** Offset of {@code header} from the start of the BTH, or -1 when this opcode does not carry it. */
    public int offsetOf(ExtHeader header) {
        return offsets[header.ordinal()];
    }

    public int rethOffset() {
        return rethOffset;
    }

    public int aethOffset() {
        return aethOffset;
    }

    public int immDtOffset() {
        return immDtOffset;
    }

    public int iethOffset() {
        return iethOffset;
    }

    public int dethOffset() {
        return dethOffset;
    }

    public int atomicEthOffset() {
        return atomicEthOffset;
    }

    public int atomicAckEthOffset() {
        return atomicAckEthOffset;
    }

    /** BTH plus extension headers: where the payload starts, counted from the BTH. */
    public int headerLength() {
        return headerLength;
    }

    /** Whether a payload may follow the headers; packets of the other opcodes end at the headers. */
    public boolean hasPayload() {
        return (flags & PAYLOAD) != 0;
    }

    /** The packet takes a receive WQE at the responder: first packet of a SEND, or a WRITE with immediate. */
    public boolean consumesRecvWqe() {
        return (flags & CONSUMES_RWQE) != 0;
    }

    /** The packet completes a receive WQE: last packet of a SEND, or a WRITE with immediate. */
    public boolean completesRecvWqe() {
        return (flags & COMPLETES_RWQE) != 0;
    }

    @Override
    public String toString() {
        return name;
    }
}
