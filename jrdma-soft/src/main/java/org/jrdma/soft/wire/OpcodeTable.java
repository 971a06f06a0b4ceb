package org.jrdma.soft.wire;

import static org.jrdma.soft.wire.ExtHeader.AETH;
import static org.jrdma.soft.wire.ExtHeader.ATOMIC_ACK_ETH;
import static org.jrdma.soft.wire.ExtHeader.ATOMIC_ETH;
import static org.jrdma.soft.wire.ExtHeader.DETH;
import static org.jrdma.soft.wire.ExtHeader.IETH;
import static org.jrdma.soft.wire.ExtHeader.IMM_DT;
import static org.jrdma.soft.wire.ExtHeader.RETH;
import static org.jrdma.soft.wire.Opcode.COMPLETES_RWQE;
import static org.jrdma.soft.wire.Opcode.CONSUMES_RWQE;
import static org.jrdma.soft.wire.Opcode.PAYLOAD;
import static org.jrdma.soft.wire.Operation.ACK;
import static org.jrdma.soft.wire.Operation.ATOMIC_ACK;
import static org.jrdma.soft.wire.Operation.COMPARE_SWAP;
import static org.jrdma.soft.wire.Operation.FETCH_ADD;
import static org.jrdma.soft.wire.Operation.RDMA_READ_REQUEST;
import static org.jrdma.soft.wire.Operation.RDMA_WRITE;
import static org.jrdma.soft.wire.Operation.READ_RESPONSE;
import static org.jrdma.soft.wire.Operation.SEND;
import static org.jrdma.soft.wire.Position.FIRST;
import static org.jrdma.soft.wire.Position.LAST;
import static org.jrdma.soft.wire.Position.MIDDLE;
import static org.jrdma.soft.wire.Position.ONLY;

import java.util.Arrays;

/**
 * All 256 BTH opcodes (ROCEV2-FACTS §1.4, after rxe's {@code rxe_opcode.c}): the RC, UC and UD
 * opcodes the soft provider speaks, CNP as known but unsupported, and an "unknown" row for every
 * other byte, so a lookup never fails and a reserved opcode is one {@link Opcode#isKnown()} test.
 *
 * <p>Also answers the sender's question in reverse: which opcode carries packet
 * FIRST/MIDDLE/LAST/ONLY of a SEND or WRITE, with or without immediate or invalidate.
 */
public final class OpcodeTable {
    /** Returned by the reverse lookups when no opcode fits. */
    public static final int NO_OPCODE = -1;

    /** IB_OPCODE_CNP: RoCEv2 congestion notification, BECN set, 16 reserved bytes (§1.4). */
    public static final int CNP = 0x81;
    private static final int CNP_RESERVED_LENGTH = 16;

    private static final Opcode[] TABLE = new Opcode[256];
    private static final Opcode OUT_OF_RANGE = Opcode.unknown(-1);

    private static final int TRANSPORTS = Transport.values().length;
    private static final int OPERATIONS = Operation.values().length;
    private static final int POSITIONS = Position.values().length;
    /** [transport][operation][withImmediate][position] → opcode byte or NO_OPCODE. */
    private static final int[] BY_KIND = new int[TRANSPORTS * OPERATIONS * 2 * POSITIONS];
    /** [position] → the RC SEND opcode of a SEND_WITH_INV message. */
    private static final int[] SEND_WITH_INVALIDATE = new int[POSITIONS];

    static {
        sendAndWrite(Transport.RC);
        define(0x0C, "RC_RDMA_READ_REQUEST", RDMA_READ_REQUEST, ONLY, 0, RETH);
        define(0x0D, "RC_RDMA_READ_RESPONSE_FIRST", READ_RESPONSE, FIRST, PAYLOAD, AETH);
        // Middle read responses carry no AETH (IBA; rxe_opcode.c).
        define(0x0E, "RC_RDMA_READ_RESPONSE_MIDDLE", READ_RESPONSE, MIDDLE, PAYLOAD);
        define(0x0F, "RC_RDMA_READ_RESPONSE_LAST", READ_RESPONSE, LAST, PAYLOAD, AETH);
        define(0x10, "RC_RDMA_READ_RESPONSE_ONLY", READ_RESPONSE, ONLY, PAYLOAD, AETH);
        define(0x11, "RC_ACKNOWLEDGE", ACK, ONLY, 0, AETH);
        define(0x12, "RC_ATOMIC_ACKNOWLEDGE", ATOMIC_ACK, ONLY, 0, AETH, ATOMIC_ACK_ETH);
        define(0x13, "RC_COMPARE_SWAP", COMPARE_SWAP, ONLY, 0, ATOMIC_ETH);
        define(0x14, "RC_FETCH_ADD", FETCH_ADD, ONLY, 0, ATOMIC_ETH);
        // 0x15 is reserved; 0x16/0x17 come after it.
        define(0x16, "RC_SEND_LAST_WITH_INVALIDATE", SEND, LAST, PAYLOAD | COMPLETES_RWQE, IETH);
        define(0x17, "RC_SEND_ONLY_WITH_INVALIDATE", SEND, ONLY, PAYLOAD | CONSUMES_RWQE | COMPLETES_RWQE, IETH);

        // UC has the RC SEND and WRITE opcodes only: no READ, atomics or ACKs (§1.4).
        sendAndWrite(Transport.UC);

        define(0x64, "UD_SEND_ONLY", SEND, ONLY, PAYLOAD | CONSUMES_RWQE | COMPLETES_RWQE, DETH);
        define(0x65, "UD_SEND_ONLY_WITH_IMMEDIATE", SEND, ONLY, PAYLOAD | CONSUMES_RWQE | COMPLETES_RWQE, DETH, IMM_DT);

        TABLE[CNP] = new Opcode(CNP, "CNP", Operation.CNP, ONLY, 0, CNP_RESERVED_LENGTH);

        for (int code = 0; code < TABLE.length; code++) {
            if (TABLE[code] == null) {
                TABLE[code] = Opcode.unknown(code);
            }
        }
        indexByKind();
    }

    private OpcodeTable() {
    }

    /**
     * The SEND and RDMA WRITE opcodes 0x00–0x0B, identical for RC and UC apart from the
     * transport bits. Only the first packet of a SEND takes a receive WQE and only the last
     * completes it; a WRITE touches the receive queue only when it carries immediate data.
     */
    private static void sendAndWrite(Transport transport) {
        int base = transport.opcodeBase();
        String prefix = transport.name() + "_";
        define(base + 0x00, prefix + "SEND_FIRST", SEND, FIRST, PAYLOAD | CONSUMES_RWQE);
        define(base + 0x01, prefix + "SEND_MIDDLE", SEND, MIDDLE, PAYLOAD);
        define(base + 0x02, prefix + "SEND_LAST", SEND, LAST, PAYLOAD | COMPLETES_RWQE);
        define(base + 0x03, prefix + "SEND_LAST_WITH_IMMEDIATE", SEND, LAST, PAYLOAD | COMPLETES_RWQE, IMM_DT);
        define(base + 0x04, prefix + "SEND_ONLY", SEND, ONLY, PAYLOAD | CONSUMES_RWQE | COMPLETES_RWQE);
        define(base + 0x05, prefix + "SEND_ONLY_WITH_IMMEDIATE", SEND, ONLY,
                PAYLOAD | CONSUMES_RWQE | COMPLETES_RWQE, IMM_DT);
        define(base + 0x06, prefix + "RDMA_WRITE_FIRST", RDMA_WRITE, FIRST, PAYLOAD, RETH);
        define(base + 0x07, prefix + "RDMA_WRITE_MIDDLE", RDMA_WRITE, MIDDLE, PAYLOAD);
        define(base + 0x08, prefix + "RDMA_WRITE_LAST", RDMA_WRITE, LAST, PAYLOAD);
        define(base + 0x09, prefix + "RDMA_WRITE_LAST_WITH_IMMEDIATE", RDMA_WRITE, LAST,
                PAYLOAD | CONSUMES_RWQE | COMPLETES_RWQE, IMM_DT);
        define(base + 0x0A, prefix + "RDMA_WRITE_ONLY", RDMA_WRITE, ONLY, PAYLOAD, RETH);
        // RETH comes before ImmDt (rxe_opcode.c ordering).
        define(base + 0x0B, prefix + "RDMA_WRITE_ONLY_WITH_IMMEDIATE", RDMA_WRITE, ONLY,
                PAYLOAD | CONSUMES_RWQE | COMPLETES_RWQE, RETH, IMM_DT);
    }

    private static void define(int code, String name, Operation operation, Position position, int flags,
            ExtHeader... headers) {
        if (TABLE[code] != null) {
            throw new IllegalStateException("opcode defined twice: " + name);
        }
        TABLE[code] = new Opcode(code, name, operation, position, flags, 0, headers);
    }

    private static void indexByKind() {
        Arrays.fill(BY_KIND, NO_OPCODE);
        Arrays.fill(SEND_WITH_INVALIDATE, NO_OPCODE);
        for (Opcode op : TABLE) {
            if (!op.isSupported()) {
                continue;
            }
            if (op.hasInvalidate()) {
                SEND_WITH_INVALIDATE[op.position().ordinal()] = op.code();
            } else {
                BY_KIND[kind(op.transport(), op.operation(), op.hasImmediate(), op.position())] = op.code();
            }
        }
        // Immediate data and invalidation ride on the last packet only, so the FIRST and MIDDLE
        // packets of such a message use the plain opcodes, wherever a LAST variant exists.
        for (Transport t : Transport.values()) {
            for (Operation o : Operation.values()) {
                if (BY_KIND[kind(t, o, true, LAST)] == NO_OPCODE) {
                    continue;
                }
                for (Position p : new Position[] {FIRST, MIDDLE}) {
                    BY_KIND[kind(t, o, true, p)] = BY_KIND[kind(t, o, false, p)];
                }
            }
        }
        SEND_WITH_INVALIDATE[FIRST.ordinal()] = BY_KIND[kind(Transport.RC, SEND, false, FIRST)];
        SEND_WITH_INVALIDATE[MIDDLE.ordinal()] = BY_KIND[kind(Transport.RC, SEND, false, MIDDLE)];
    }

    private static int kind(Transport transport, Operation operation, boolean withImmediate, Position position) {
        return ((transport.ordinal() * OPERATIONS + operation.ordinal()) * 2 + (withImmediate ? 1 : 0)) * POSITIONS
                + position.ordinal();
    }

    /**
     * The row for {@code code}; never null. Any int is accepted: one outside 0..255 gets an
     * unknown row (code -1), so a caller that forgot to mask a signed byte sees "unknown"
     * rather than an exception.
     */
    public static Opcode get(int code) {
        return (code & ~0xFF) == 0 ? TABLE[code] : OUT_OF_RANGE;
    }

    /**
     * The opcode for one packet of a message the requester (or, for READ_RESPONSE and ACK, the
     * responder) sends: e.g. (RC, SEND, true, LAST) → RC_SEND_LAST_WITH_IMMEDIATE, and
     * (UC, RDMA_WRITE, true, FIRST) → UC_RDMA_WRITE_FIRST since immediate data rides on the last
     * packet. Single-packet operations (READ request, atomics, ACKs, UD sends) are ONLY.
     *
     * @return the opcode byte, or {@link #NO_OPCODE} when the transport has no such packet
     *         (UD FIRST, UC READ, WRITE-with-immediate MIDDLE on UD, ...)
     */
    public static int opcodeFor(Transport transport, Operation operation, boolean withImmediate, Position position) {
        return BY_KIND[kind(transport, operation, withImmediate, position)];
    }

    /** The opcode for packet {@code position} of an RC SEND_WITH_INV message (only RC has IETH). */
    public static int sendWithInvalidateOpcode(Position position) {
        return SEND_WITH_INVALIDATE[position.ordinal()];
    }
}
