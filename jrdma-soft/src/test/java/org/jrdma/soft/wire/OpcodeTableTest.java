package org.jrdma.soft.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jrdma.soft.wire.ExtHeader.AETH;
import static org.jrdma.soft.wire.ExtHeader.ATOMIC_ACK_ETH;
import static org.jrdma.soft.wire.ExtHeader.ATOMIC_ETH;
import static org.jrdma.soft.wire.ExtHeader.DETH;
import static org.jrdma.soft.wire.ExtHeader.IETH;
import static org.jrdma.soft.wire.ExtHeader.IMM_DT;
import static org.jrdma.soft.wire.ExtHeader.RETH;
import static org.jrdma.soft.wire.Operation.RDMA_WRITE;
import static org.jrdma.soft.wire.Operation.SEND;
import static org.jrdma.soft.wire.Position.FIRST;
import static org.jrdma.soft.wire.Position.LAST;
import static org.jrdma.soft.wire.Position.MIDDLE;
import static org.jrdma.soft.wire.Position.ONLY;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class OpcodeTableTest {
    /** One row of ROCEV2-FACTS §1.4. */
    record Row(int code, String name, int headerLength, boolean payload, boolean rwqe, boolean cqe,
            List<ExtHeader> headers) {
    }

    static List<Row> spec() {
        List<Row> rows = new java.util.ArrayList<>();
        for (String t : new String[] {"RC", "UC"}) {
            int b = t.equals("RC") ? 0x00 : 0x20;
            rows.add(new Row(b + 0x00, t + "_SEND_FIRST", 12, true, true, false, List.of()));
            rows.add(new Row(b + 0x01, t + "_SEND_MIDDLE", 12, true, false, false, List.of()));
            rows.add(new Row(b + 0x02, t + "_SEND_LAST", 12, true, false, true, List.of()));
            rows.add(new Row(b + 0x03, t + "_SEND_LAST_WITH_IMMEDIATE", 16, true, false, true, List.of(IMM_DT)));
            rows.add(new Row(b + 0x04, t + "_SEND_ONLY", 12, true, true, true, List.of()));
            rows.add(new Row(b + 0x05, t + "_SEND_ONLY_WITH_IMMEDIATE", 16, true, true, true, List.of(IMM_DT)));
            rows.add(new Row(b + 0x06, t + "_RDMA_WRITE_FIRST", 28, true, false, false, List.of(RETH)));
            rows.add(new Row(b + 0x07, t + "_RDMA_WRITE_MIDDLE", 12, true, false, false, List.of()));
            rows.add(new Row(b + 0x08, t + "_RDMA_WRITE_LAST", 12, true, false, false, List.of()));
            rows.add(new Row(b + 0x09, t + "_RDMA_WRITE_LAST_WITH_IMMEDIATE", 16, true, true, true, List.of(IMM_DT)));
            rows.add(new Row(b + 0x0A, t + "_RDMA_WRITE_ONLY", 28, true, false, false, List.of(RETH)));
            rows.add(new Row(b + 0x0B, t + "_RDMA_WRITE_ONLY_WITH_IMMEDIATE", 32, true, true, true,
                    List.of(RETH, IMM_DT)));
        }
        rows.add(new Row(0x0C, "RC_RDMA_READ_REQUEST", 28, false, false, false, List.of(RETH)));
        rows.add(new Row(0x0D, "RC_RDMA_READ_RESPONSE_FIRST", 16, true, false, false, List.of(AETH)));
        rows.add(new Row(0x0E, "RC_RDMA_READ_RESPONSE_MIDDLE", 12, true, false, false, List.of()));
        rows.add(new Row(0x0F, "RC_RDMA_READ_RESPONSE_LAST", 16, true, false, false, List.of(AETH)));
        rows.add(new Row(0x10, "RC_RDMA_READ_RESPONSE_ONLY", 16, true, false, false, List.of(AETH)));
        rows.add(new Row(0x11, "RC_ACKNOWLEDGE", 16, false, false, false, List.of(AETH)));
        rows.add(new Row(0x12, "RC_ATOMIC_ACKNOWLEDGE", 24, false, false, false, List.of(AETH, ATOMIC_ACK_ETH)));
        rows.add(new Row(0x13, "RC_COMPARE_SWAP", 40, false, false, false, List.of(ATOMIC_ETH)));
        rows.add(new Row(0x14, "RC_FETCH_ADD", 40, false, false, false, List.of(ATOMIC_ETH)));
        rows.add(new Row(0x16, "RC_SEND_LAST_WITH_INVALIDATE", 16, true, false, true, List.of(IETH)));
        rows.add(new Row(0x17, "RC_SEND_ONLY_WITH_INVALIDATE", 16, true, true, true, List.of(IETH)));
        rows.add(new Row(0x64, "UD_SEND_ONLY", 20, true, true, true, List.of(DETH)));
        rows.add(new Row(0x65, "UD_SEND_ONLY_WITH_IMMEDIATE", 24, true, true, true, List.of(DETH, IMM_DT)));
        return rows;
    }

    @ParameterizedTest
    @MethodSource("spec")
    void everySupportedOpcodeMatchesTheSpecTable(Row row) {
        Opcode op = OpcodeTable.get(row.code());

        assertThat(op.code()).isEqualTo(row.code());
        assertThat(op.name()).isEqualTo(row.name());
        assertThat(op.isKnown()).isTrue();
        assertThat(op.isSupported()).isTrue();
        assertThat(op.transport().name()).isEqualTo(row.name().substring(0, 2));
        assertThat(op.headerLength()).isEqualTo(row.headerLength());
        assertThat(op.hasPayload()).isEqualTo(row.payload());
        assertThat(op.consumesRecvWqe()).isEqualTo(row.rwqe());
        assertThat(op.completesRecvWqe()).isEqualTo(row.cqe());
        assertThat(op.hasImmediate()).isEqualTo(row.headers().contains(IMM_DT));
        assertThat(op.hasInvalidate()).isEqualTo(row.headers().contains(IETH));
        assertThat(op.isRequest()).isNotEqualTo(op.isResponse());
        assertThat(op.isResponse()).isEqualTo(row.name().contains("RESPONSE") || row.name().contains("ACKNOWLEDGE"));
        int at = Bth.LENGTH;
        for (ExtHeader header : ExtHeader.values()) {
            assertThat(op.has(header)).isEqualTo(row.headers().contains(header));
        }
        for (ExtHeader header : row.headers()) {
            assertThat(op.offsetOf(header)).as(header.name()).isEqualTo(at);
            at += header.length();
        }
        assertThat(at).isEqualTo(op.headerLength());
        assertThat(op.rethOffset()).isEqualTo(op.offsetOf(RETH));
        assertThat(op.aethOffset()).isEqualTo(op.offsetOf(AETH));
        assertThat(op.immDtOffset()).isEqualTo(op.offsetOf(IMM_DT));
        assertThat(op.iethOffset()).isEqualTo(op.offsetOf(IETH));
        assertThat(op.dethOffset()).isEqualTo(op.offsetOf(DETH));
        assertThat(op.atomicEthOffset()).isEqualTo(op.offsetOf(ATOMIC_ETH));
        assertThat(op.atomicAckEthOffset()).isEqualTo(op.offsetOf(ATOMIC_ACK_ETH));
    }

    @Test
    void everyOtherByteIsUnknownExceptCnp() {
        Set<Integer> supported = new TreeSet<>();
        spec().forEach(r -> supported.add(r.code()));
        for (int code = 0; code < 256; code++) {
            Opcode op = OpcodeTable.get(code);
            assertThat(op.code()).isEqualTo(code);
            assertThat(op.isSupported()).as("0x%02x", code).isEqualTo(supported.contains(code));
            if (code == OpcodeTable.CNP) {
                assertThat(op.isKnown()).isTrue();
                assertThat(op.name()).isEqualTo("CNP");
                assertThat(op.headerLength()).isEqualTo(28);
                assertThat(op.transport()).isEqualTo(Transport.CNP);
            } else if (!supported.contains(code)) {
                assertThat(op.isKnown()).isFalse();
                assertThat(op.operation()).isEqualTo(Operation.UNKNOWN);
                assertThat(op.name()).isEqualTo(String.format("UNKNOWN_0x%02X", code));
            }
        }
        assertThat(supported).hasSize(23 + 12 + 2);
    }

    @Test
    void anyIntIsSafeToLookUp() {
        for (int code : new int[] {-1, -128, 256, 0x1000, Integer.MIN_VALUE, Integer.MAX_VALUE}) {
            assertThat(OpcodeTable.get(code).isKnown()).isFalse();
        }
        IntStream.range(0, 256).forEach(c -> assertThat(OpcodeTable.get((byte) c & 0xFF).code()).isEqualTo(c));
    }

    @Test
    void transportComesFromTheTopThreeBits() {
        assertThat(Transport.of(0x04)).isEqualTo(Transport.RC);
        assertThat(Transport.of(0x24)).isEqualTo(Transport.UC);
        assertThat(Transport.of(0x44)).isEqualTo(Transport.RD);
        assertThat(Transport.of(0x64)).isEqualTo(Transport.UD);
        assertThat(Transport.of(0x81)).isEqualTo(Transport.CNP);
        assertThat(Transport.of(0xA0)).isEqualTo(Transport.RESERVED);
        assertThat(Transport.of(0xFF)).isEqualTo(Transport.MANUFACTURER);
    }

    @Test
    void reverseLookupFindsEverySupportedOpcode() {
        for (Row row : spec()) {
            Opcode op = OpcodeTable.get(row.code());
            int found = op.hasInvalidate()
                    ? OpcodeTable.sendWithInvalidateOpcode(op.position())
                    : OpcodeTable.opcodeFor(op.transport(), op.operation(), op.hasImmediate(), op.position());
            assertThat(found).as(row.name()).isEqualTo(row.code());
        }
    }

    @Test
    void immediateAndInvalidateRideOnTheLastPacket() {
        assertThat(OpcodeTable.opcodeFor(Transport.RC, SEND, true, FIRST)).isEqualTo(0x00);
        assertThat(OpcodeTable.opcodeFor(Transport.RC, SEND, true, MIDDLE)).isEqualTo(0x01);
        assertThat(OpcodeTable.opcodeFor(Transport.RC, SEND, true, LAST)).isEqualTo(0x03);
        assertThat(OpcodeTable.opcodeFor(Transport.UC, RDMA_WRITE, true, FIRST)).isEqualTo(0x26);
        assertThat(OpcodeTable.opcodeFor(Transport.UC, RDMA_WRITE, true, MIDDLE)).isEqualTo(0x27);
        assertThat(OpcodeTable.opcodeFor(Transport.UC, RDMA_WRITE, true, LAST)).isEqualTo(0x29);
        assertThat(OpcodeTable.opcodeFor(Transport.UC, RDMA_WRITE, true, ONLY)).isEqualTo(0x2B);
        assertThat(OpcodeTable.sendWithInvalidateOpcode(FIRST)).isEqualTo(0x00);
        assertThat(OpcodeTable.sendWithInvalidateOpcode(MIDDLE)).isEqualTo(0x01);
        assertThat(OpcodeTable.sendWithInvalidateOpcode(LAST)).isEqualTo(0x16);
        assertThat(OpcodeTable.sendWithInvalidateOpcode(ONLY)).isEqualTo(0x17);
        assertThat(OpcodeTable.opcodeFor(Transport.UD, SEND, true, ONLY)).isEqualTo(0x65);
        assertThat(OpcodeTable.opcodeFor(Transport.RC, Operation.ACK, false, ONLY)).isEqualTo(0x11);
        assertThat(OpcodeTable.opcodeFor(Transport.RC, Operation.READ_RESPONSE, false, MIDDLE)).isEqualTo(0x0E);
    }

    @Test
    void reverseLookupRefusesWhatTheTransportLacks() {
        assertThat(OpcodeTable.opcodeFor(Transport.UD, SEND, false, FIRST)).isEqualTo(OpcodeTable.NO_OPCODE);
        assertThat(OpcodeTable.opcodeFor(Transport.UD, RDMA_WRITE, false, ONLY)).isEqualTo(OpcodeTable.NO_OPCODE);
        assertThat(OpcodeTable.opcodeFor(Transport.UC, Operation.RDMA_READ_REQUEST, false, ONLY))
                .isEqualTo(OpcodeTable.NO_OPCODE);
        assertThat(OpcodeTable.opcodeFor(Transport.UC, Operation.ACK, false, ONLY)).isEqualTo(OpcodeTable.NO_OPCODE);
        assertThat(OpcodeTable.opcodeFor(Transport.RC, Operation.FETCH_ADD, false, FIRST))
                .isEqualTo(OpcodeTable.NO_OPCODE);
        assertThat(OpcodeTable.opcodeFor(Transport.RC, Operation.CNP, false, ONLY)).isEqualTo(OpcodeTable.NO_OPCODE);
        assertThat(OpcodeTable.opcodeFor(Transport.RD, SEND, false, ONLY)).isEqualTo(OpcodeTable.NO_OPCODE);
    }

    @Test
    void positionsMarkStartAndEnd() {
        assertThat(OpcodeTable.get(0x00).position()).isEqualTo(FIRST);
        assertThat(OpcodeTable.get(0x0E).position()).isEqualTo(MIDDLE);
        assertThat(OpcodeTable.get(0x0F).position()).isEqualTo(LAST);
        assertThat(OpcodeTable.get(0x11).position()).isEqualTo(ONLY);
        assertThat(FIRST.isStart()).isTrue();
        assertThat(FIRST.isEnd()).isFalse();
        assertThat(MIDDLE.isStart() || MIDDLE.isEnd()).isFalse();
        assertThat(LAST.isEnd()).isTrue();
        assertThat(ONLY.isStart() && ONLY.isEnd()).isTrue();
    }
}
