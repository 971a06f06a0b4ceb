package org.jrdma.soft.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class RxPacketTest {
    private final RxPacket packet = new RxPacket();
    private final Random random = new Random(0xD0);

    static Stream<Opcode> supported() {
        return IntStream.range(0, 256).mapToObj(OpcodeTable::get).filter(Opcode::isSupported);
    }

    static Stream<Opcode> unknown() {
        return IntStream.range(0, 256).mapToObj(OpcodeTable::get).filter(op -> !op.isKnown());
    }

    @ParameterizedTest
    @MethodSource("supported")
    void everyValidOpcodeParses(Opcode op) {
        for (int trial = 0; trial < 50; trial++) {
            int payload = TestPackets.payloadFor(op, random, 300);
            int offset = random.nextInt(40);
            TestPackets.Packet p = TestPackets.build(op.code(), payload, offset, random.nextInt(40), random, trial % 2 == 0);

            assertThat(packet.wrap(p.buffer(), offset, p.length())).isEqualTo(DropReason.NONE);
            assertThat(packet.isValid()).isTrue();
            assertThat(packet.opcode()).isSameAs(op);
            assertThat(packet.bth().opcode()).isEqualTo(op.code());
            assertThat(packet.bth().offset()).isEqualTo(offset);
            assertThat(packet.payloadLength()).isEqualTo(payload);
            assertThat(packet.padCount()).isEqualTo(Pad.count(payload));
            assertThat(packet.payloadOffset()).isEqualTo(offset + op.headerLength());
            assertThat(packet.icrcOffset()).isEqualTo(offset + p.length() - 4);
            assertThat(packet.payloadOffset() + packet.payloadLength() + packet.padCount()).isEqualTo(packet.icrcOffset());
            if (op.has(ExtHeader.RETH)) {
                assertThat(packet.reth().offset()).isEqualTo(offset + op.rethOffset());
            }
            if (op.has(ExtHeader.AETH)) {
                assertThat(packet.aeth().offset()).isEqualTo(offset + op.aethOffset());
            }
            if (op.has(ExtHeader.IMM_DT)) {
                assertThat(packet.immDt().offset()).isEqualTo(offset + op.immDtOffset());
            }
            if (op.has(ExtHeader.IETH)) {
                assertThat(packet.ieth().offset()).isEqualTo(offset + op.iethOffset());
            }
            if (op.has(ExtHeader.DETH)) {
                assertThat(packet.deth().offset()).isEqualTo(offset + op.dethOffset());
            }
            if (op.has(ExtHeader.ATOMIC_ETH)) {
                assertThat(packet.atomicEth().offset()).isEqualTo(offset + op.atomicEthOffset());
            }
            if (op.has(ExtHeader.ATOMIC_ACK_ETH)) {
                assertThat(packet.atomicAckEth().offset()).isEqualTo(offset + op.atomicAckEthOffset());
            }
        }
    }

    @ParameterizedTest
    @MethodSource("supported")
    void runtsOfEveryLengthUpToTheHeadersAndIcrc(Opcode op) {
        TestPackets.Packet full = TestPackets.build(op.code(), 0, random);
        for (int length = 0; length < op.headerLength() + Icrc.LENGTH; length++) {
            assertThat(packet.wrap(full.buffer(), 0, length)).as("%s, %d bytes", op, length).isEqualTo(DropReason.RUNT);
            assertThat(packet.isValid()).isFalse();
        }
        assertThat(packet.wrap(full.buffer(), 0, op.headerLength() + Icrc.LENGTH)).isEqualTo(DropReason.NONE);
    }

    @ParameterizedTest
    @MethodSource("supported")
    void nonZeroTransportVersionIsDropped(Opcode op) {
        TestPackets.Packet p = TestPackets.build(op.code(), TestPackets.payloadFor(op, random, 64), random);
        for (int tver = 1; tver < 16; tver++) {
            new Bth().wrap(p.buffer(), 0).tver(tver);
            assertThat(packet.wrap(p.buffer(), 0, p.length())).isEqualTo(DropReason.BAD_TVER);
        }
    }

    @ParameterizedTest
    @MethodSource("unknown")
    void unknownOpcodesAreDropped(Opcode op) {
        for (int length : new int[] {12, 16, 64, 1500}) {
            ByteBuffer buffer = ByteBuffer.allocate(length);
            new Bth().wrap(buffer, 0).opcode(op.code());
            assertThat(packet.wrap(buffer, 0, length)).isEqualTo(DropReason.UNKNOWN_OPCODE);
            assertThat(packet.opcode()).isSameAs(op);
        }
    }

    @Test
    void cnpIsKnownButUnsupported() {
        ByteBuffer cnp = Hex.buffer(Vectors.CNP_CONNECTX);
        assertThat(packet.wrap(cnp, Vectors.UDP_PAYLOAD, cnp.capacity() - Vectors.UDP_PAYLOAD))
                .isEqualTo(DropReason.UNSUPPORTED_OPCODE);
        assertThat(packet.opcode().name()).isEqualTo("CNP");
        assertThat(packet.bth().becn()).isTrue();
    }

    @Test
    void padLongerThanThePayloadIsBadLength() {
        for (int code : new int[] {0x04, 0x10, 0x64, 0x0B}) {
            TestPackets.Packet p = TestPackets.build(code, 0, random);            // empty LAST/ONLY packets
            for (int pad = 1; pad <= 3; pad++) {
                new Bth().wrap(p.buffer(), 0).padCount(pad);
                assertThat(packet.wrap(p.buffer(), 0, p.length())).isEqualTo(DropReason.BAD_LENGTH);
            }
        }
        // The pad count decides where the payload ends: 2 bytes + pad 2, read with pad 0, is 4 bytes.
        TestPackets.Packet p = TestPackets.build(0x10, 2, random);
        new Bth().wrap(p.buffer(), 0).padCount(0);
        assertThat(packet.wrap(p.buffer(), 0, p.length())).isEqualTo(DropReason.NONE);
        assertThat(packet.payloadLength()).isEqualTo(4);
    }

    @Test
    void padOnAFirstOrMiddlePacketIsBadLength() {
        supported().filter(op -> op.hasPayload() && !op.position().isEnd()).forEach(op -> {
            TestPackets.Packet p = TestPackets.build(op.code(), 64, random);
            assertThat(packet.wrap(p.buffer(), 0, p.length())).isEqualTo(DropReason.NONE);
            for (int pad = 1; pad <= 3; pad++) {
                new Bth().wrap(p.buffer(), 0).padCount(pad);
                assertThat(packet.wrap(p.buffer(), 0, p.length())).as(op.name()).isEqualTo(DropReason.BAD_LENGTH);
            }
        });
    }

    @Test
    void bytesAfterTheHeadersOfAnOpcodeWithoutPayloadAreBadLength() {
        assertThat(supported().filter(op -> !op.hasPayload()).count()).isEqualTo(5);
        supported().filter(op -> !op.hasPayload()).forEach(op -> {
            int exact = op.headerLength() + Icrc.LENGTH;
            ByteBuffer buffer = ByteBuffer.allocate(exact + 8);
            new Bth().wrap(buffer, 0).opcode(op.code());
            assertThat(packet.wrap(buffer, 0, exact)).isEqualTo(DropReason.NONE);
            for (int extra = 1; extra <= 8; extra++) {
                assertThat(packet.wrap(buffer, 0, exact + extra)).as("%s + %d", op, extra)
                        .isEqualTo(DropReason.BAD_LENGTH);
            }
            new Bth().wrap(buffer, 0).padCount(1);
            assertThat(packet.wrap(buffer, 0, exact + 1)).isEqualTo(DropReason.BAD_LENGTH);
        });
    }

    @Test
    void takesTheRcSendOnlyVectorApart() {
        ByteBuffer ip = Hex.buffer(Vectors.RC_SEND_ONLY);
        assertThat(packet.wrap(ip, Vectors.UDP_PAYLOAD, ip.capacity() - Vectors.UDP_PAYLOAD)).isEqualTo(DropReason.NONE);

        assertThat(packet.opcode().name()).isEqualTo("RC_SEND_ONLY");
        assertThat(packet.bth().destQp()).isEqualTo(0x12);
        assertThat(packet.bth().psn()).isEqualTo(0x100);
        assertThat(packet.bth().ackReq()).isTrue();
        assertThat(packet.payloadLength()).isEqualTo(5);
        assertThat(packet.padCount()).isEqualTo(3);
        byte[] payload = new byte[packet.payloadLength()];
        ip.get(packet.payloadOffset(), payload);
        assertThat(new String(payload, StandardCharsets.US_ASCII)).isEqualTo("hello");
        assertThat(packet.storedIcrc()).isEqualTo(0x8A203927);
        assertThat(packet.toString()).isEqualTo("RC_SEND_ONLY qp=0x000012 psn=0x000100 ack pad=3 payload=5");

        IcrcVerifier verifier = new IcrcVerifier();
        assertThat(packet.verifyIcrcIpv4(verifier, ip.getInt(12), ip.getInt(16), 0xC123, 4791)).isEqualTo(DropReason.NONE);
        ip.put(packet.payloadOffset(), (byte) 'j');
        assertThat(packet.verifyIcrcIpv4(verifier, ip.getInt(12), ip.getInt(16), 0xC123, 4791))
                .isEqualTo(DropReason.BAD_ICRC);
    }

    @Test
    void takesTheAckVectorApart() {
        ByteBuffer ip = Hex.buffer(Vectors.RC_ACK);
        assertThat(packet.wrap(ip, Vectors.UDP_PAYLOAD, ip.capacity() - Vectors.UDP_PAYLOAD)).isEqualTo(DropReason.NONE);

        assertThat(packet.opcode().operation()).isEqualTo(Operation.ACK);
        assertThat(packet.opcode().isResponse()).isTrue();
        assertThat(packet.aeth().isAck()).isTrue();
        assertThat(packet.aeth().syndrome()).isEqualTo(0x1F);
        assertThat(packet.aeth().msn()).isEqualTo(1);
        assertThat(packet.payloadLength()).isZero();
        assertThat(packet.toString()).isEqualTo("RC_ACKNOWLEDGE qp=0x000034 psn=0x000100 syndrome=0x1f msn=1");
    }

    @Test
    void absentHeadersCannotBeRead() {
        ByteBuffer ip = Hex.buffer(Vectors.RC_ACK);
        packet.wrap(ip, Vectors.UDP_PAYLOAD, ip.capacity() - Vectors.UDP_PAYLOAD);
        assertThatThrownBy(packet::reth).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("RC_ACKNOWLEDGE").hasMessageContaining("RETH");
        assertThatThrownBy(packet::deth).isInstanceOf(IllegalStateException.class);
        // A dropped packet exposes no extension headers, even those its opcode has.
        ip.put(Vectors.UDP_PAYLOAD + 1, (byte) 1);                            // TVer 1
        packet.wrap(ip, Vectors.UDP_PAYLOAD, ip.capacity() - Vectors.UDP_PAYLOAD);
        assertThat(packet.status()).isEqualTo(DropReason.BAD_TVER);
        assertThatThrownBy(packet::aeth).isInstanceOf(IllegalStateException.class);
        assertThat(packet.toString()).endsWith("dropped: bad transport version");
    }

    @Test
    void aRangeOutsideTheBufferIsACallerBug() {
        ByteBuffer buffer = ByteBuffer.allocate(20);
        assertThatThrownBy(() -> packet.wrap(buffer, 10, 11)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> packet.wrap(buffer, -1, 4)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> packet.wrap(buffer, 0, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(packet.wrap(buffer, 20, 0)).isEqualTo(DropReason.RUNT);
        assertThat(packet.toString()).isEqualTo("runt of 0 bytes");
    }

    @Test
    void dropReasonsCoverTheProviderChecks() {
        assertThat(DropReason.values()).extracting(Enum::name).contains("NONE", "RUNT", "BAD_TVER", "UNKNOWN_OPCODE",
                "BAD_LENGTH", "BAD_ICRC", "UNKNOWN_QPN", "BAD_QP_STATE", "WRONG_SOURCE", "WRONG_TRANSPORT", "BAD_PKEY");
        for (DropReason reason : DropReason.values()) {
            assertThat(reason.description()).isNotBlank();
        }
    }

    @Test
    void parsingAllocatesNothing() {
        TestPackets.Packet[] packets = supported()
                .map(op -> TestPackets.build(op.code(), TestPackets.payloadFor(op, random, 256), random))
                .toArray(TestPackets.Packet[]::new);
        Runnable work = () -> {
            for (int i = 0; i < 50_000; i++) {
                TestPackets.Packet p = packets[i % packets.length];
                if (packet.wrap(p.buffer(), 0, p.length()) != DropReason.NONE || packet.payloadLength() < 0) {
                    throw new AssertionError();
                }
            }
        };
        work.run();
        assertThat(Allocations.bytesAllocatedBy(work)).isLessThan(1024);
    }
}
