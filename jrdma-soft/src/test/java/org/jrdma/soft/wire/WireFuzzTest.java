package org.jrdma.soft.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jrdma.testkit.fuzz.Fuzz;
import org.junit.jupiter.api.Test;

/**
 * Fuzzing the receive path's parsers (issue 6 item 7; REL-03, REL-04 in bulk): {@link RxPacket}
 * with its header flyweights, {@link IcrcVerifier}, and {@link Icrc#computeIpPacket} for captured
 * IP packets. Inputs are random bytes of every length, mutations and truncations of valid packets,
 * and bit flips. Properties:
 * <ul>
 *   <li>{@code wrap} and the verifier never throw: a bad packet is a {@link DropReason} or false;</li>
 *   <li>no over-read: the same bytes give the same result as an exact-size buffer (whose absolute
 *       reads past the limit throw), inside two buffers with different random canaries around them,
 *       and in a direct buffer;</li>
 *   <li>an accepted packet's payload, pad and ICRC lie inside the given range and add up to it;</li>
 *   <li>a valid packet parses, and its ICRC verifies, and a flip of 1–3 bits is caught, except in
 *       BTH byte 4, which the ICRC masks by design (§1.8).</li>
 * </ul>
 * CI runs a few thousand cases per property; {@code -Djrdma.fuzz.iterations=N} runs N, and
 * {@code -Djrdma.fuzz.seed=S} replays a reported case ({@link Fuzz}).
 */
class WireFuzzTest {
    private static final int MAX_LENGTH = 2100;
    private static final int SRC = 0x7F4D0001;
    private static final int DST = 0x7F4D0002;
    private static final int SPORT = 49152;
    private static final int DPORT = 4791;
    private static final List<Integer> SUPPORTED = supportedOpcodes();

    private final RxPacket rx = new RxPacket();
    private final IcrcVerifier anyId = new IcrcVerifier();
    private final IcrcVerifier strict = new IcrcVerifier(IcrcVerifier.Ipv4IdPolicy.ID_ZERO_ONLY);

    /** Every length 0..2100 once, random bytes with TVer 0 and a supported opcode half the time. */
    @Test
    void randomBytesOfEveryLengthAreDroppedOrParsedNeverThrown() {
        Random r = new Random(Fuzz.seed(0xF0221));
        for (int len = 0; len <= MAX_LENGTH; len++) {
            byte[] b = plausible(Fuzz.randomBytes(r, len), r);
            checkParse(b, r, "length " + len);
        }
    }

    @Test
    void randomBytesOnlyEverParseOrDrop() {
        Fuzz.run("RxPacket random bytes", 20_000, 0xF0222, c -> {
            Random r = c.random();
            byte[] b = c.input(plausible(Fuzz.randomBytes(r, r.nextInt(r.nextBoolean() ? 64 : MAX_LENGTH)), r));
            checkParse(b, r, "");
        });
    }

    @Test
    void mutatedValidPacketsOnlyEverParseOrDrop() {
        Fuzz.run("RxPacket mutated packets", 20_000, 0xF0223, c -> {
            Random r = c.random();
            byte[] b = c.input(Fuzz.mutate(validPacket(r), r));
            checkParse(b, r, "");
            verifyBoth(b, r);
        });
    }

    /** Every prefix of a valid packet: a runt or bad length, or a shorter valid packet; never an exception. */
    @Test
    void everyTruncationOfAValidPacketIsHandled() {
        Fuzz.run("RxPacket truncations", 120, 1000, 0xF0224, c -> {
            Random r = c.random();
            byte[] full = c.input(validPacket(r));
            for (int len = 0; len <= full.length; len++) {
                byte[] prefix = java.util.Arrays.copyOf(full, len);
                checkParse(prefix, r, "prefix " + len);
                assertThat(strict.verifyIpv4(SRC, DST, SPORT, DPORT, ByteBuffer.wrap(prefix), 0, len))
                        .as("prefix %d of %d keeps the ICRC valid", len, full.length).isEqualTo(len == full.length);
            }
        });
    }

    @Test
    void validPacketsParseAndVerify() {
        Fuzz.run("RxPacket valid packets", 5_000, 0xF0225, c -> {
            Random r = c.random();
            byte[] b = c.input(validPacket(r));
            assertThat(rx.wrap(ByteBuffer.wrap(b), 0, b.length)).isEqualTo(DropReason.NONE);
            assertThat(strict.verifyIpv4(SRC, DST, SPORT, DPORT, ByteBuffer.wrap(b), 0, b.length)).isTrue();
            assertThat(anyId.verifyIpv4(SRC, DST, SPORT, DPORT, ByteBuffer.wrap(b), 0, b.length)).isTrue();
        });
    }

    /** REL-01 in bulk: 1–3 flipped bits outside the masked BTH byte 4 never pass the strict check. */
    @Test
    void bitFlipsAreCaughtByTheHeaderChecksOrTheIcrc() {
        Fuzz.run("ICRC bit flips", 20_000, 0xF0226, c -> {
            Random r = c.random();
            byte[] valid = validPacket(r);
            byte[] b = c.input(Fuzz.flipBits(valid, r, 1 + r.nextInt(3)));
            boolean onlyMaskedByte = true;
            for (int i = 0; i < b.length; i++) {
                if (b[i] != valid[i] && i != Bth.RESV8A_OFFSET) {
                    onlyMaskedByte = false;
                }
            }
            checkParse(b, r, "");
            boolean passes = strict.verifyIpv4(SRC, DST, SPORT, DPORT, ByteBuffer.wrap(b), 0, b.length);
            assertThat(passes).as("strict ICRC of a packet with flipped bits").isEqualTo(onlyMaskedByte);
        });
    }

    /**
     * {@link Icrc#computeIpPacket} and {@link Icrc#verifyIpPacket} read a whole captured packet
     * whose IP and UDP lengths are input: only {@link IllegalArgumentException} may come out, and
     * never a read past the buffer (a UDP length larger than the datagram, REL-03).
     */
    @Test
    void capturedIpPacketsOnlyFailTyped() {
        List<byte[]> seeds = List.of(Hex.bytes(Vectors.CNP_CONNECTX), Hex.bytes(Vectors.SCAPY_UC_SEND_ONLY),
                Hex.bytes(Vectors.RC_SEND_ONLY), Hex.bytes(Vectors.RC_ACK));
        Icrc icrc = new Icrc();
        Fuzz.run("Icrc captured IP packets", 20_000, 0xF0227, c -> {
            Random r = c.random();
            byte[] b = c.input(Fuzz.mutate(seeds.get(r.nextInt(seeds.size())), r));
            String exact = ipResult(icrc, ByteBuffer.wrap(b), 0);
            int before = r.nextInt(16);
            byte[] big = Fuzz.embed(b, before, r.nextInt(64), r);
            // The capture is the range [before, before + length): a slice so nothing past it is readable.
            assertThat(ipResult(icrc, ByteBuffer.wrap(big, before, b.length).slice(), 0)).isEqualTo(exact);
            ByteBuffer withCanary = ByteBuffer.wrap(big).limit(before + b.length);
            assertThat(ipResult(icrc, withCanary, before)).isEqualTo(exact);
        });
    }

    // ------------------------------------------------------------------ properties

    /**
     * Parses {@code b} as an exact heap buffer, a slice of a larger buffer, inside two different
     * canaries, and as a direct buffer, and asserts the same outcome everywhere.
     */
    private void checkParse(byte[] b, Random r, String what) {
        String exact = fingerprint(ByteBuffer.wrap(b), 0, b.length);
        int before = r.nextInt(24);
        int after = r.nextInt(48);
        byte[] big1 = Fuzz.embed(b, before, after, r);
        byte[] big2 = Fuzz.embed(b, before, after, r);
        assertThat(fingerprint(ByteBuffer.wrap(big1), before, b.length)).as("canary 1 %s", what).isEqualTo(exact);
        assertThat(fingerprint(ByteBuffer.wrap(big2), before, b.length)).as("canary 2 %s", what).isEqualTo(exact);
        assertThat(fingerprint(ByteBuffer.wrap(big1, before, b.length).slice(), 0, b.length)).as("slice %s", what)
                .isEqualTo(exact);
        ByteBuffer direct = ByteBuffer.allocateDirect(b.length).put(b).clear();
        assertThat(fingerprint(direct, 0, b.length)).as("direct %s", what).isEqualTo(exact);
    }

    /** Everything the engine may read after a wrap, as text; reading is what would over-read. */
    private String fingerprint(ByteBuffer buffer, int offset, int length) {
        DropReason status = rx.wrap(buffer, offset, length);
        StringBuilder out = new StringBuilder(status.name());
        if (length >= Bth.LENGTH) {
            out.append(' ').append(PacketDump.bth(rx.bth())).append(" tver=").append(rx.bth().tver());
        }
        if (status != DropReason.NONE) {
            return out.toString();
        }
        int payloadAt = rx.payloadOffset() - offset;
        assertThat(payloadAt).isEqualTo(rx.opcode().headerLength());
        assertThat(payloadAt + rx.payloadLength() + rx.padCount() + Icrc.LENGTH).as("sizes add up").isEqualTo(length);
        assertThat(rx.payloadLength()).isNotNegative();
        assertThat(rx.icrcOffset()).isEqualTo(offset + length - Icrc.LENGTH);
        out.append(" payload@").append(payloadAt).append('+').append(rx.payloadLength()).append(" pad=")
                .append(rx.padCount()).append(" icrc=").append(Integer.toHexString(rx.storedIcrc()));
        Opcode op = rx.opcode();
        if (op.has(ExtHeader.RETH)) {
            out.append(" reth ").append(rx.reth().va()).append('/').append(rx.reth().rkey()).append('/')
                    .append(rx.reth().dmaLengthUnsigned());
        }
        if (op.has(ExtHeader.AETH)) {
            out.append(" aeth ").append(rx.aeth().syndrome()).append('/').append(rx.aeth().msn());
        }
        if (op.has(ExtHeader.IMM_DT)) {
            out.append(" imm ").append(rx.immDt().immediate());
        }
        if (op.has(ExtHeader.IETH)) {
            out.append(" ieth ").append(rx.ieth().rkey());
        }
        if (op.has(ExtHeader.DETH)) {
            out.append(" deth ").append(rx.deth().qkey()).append('/').append(rx.deth().srcQp());
        }
        if (op.has(ExtHeader.ATOMIC_ETH)) {
            AtomicEth a = rx.atomicEth();
            out.append(" atomic ").append(a.va()).append('/').append(a.rkey()).append('/').append(a.swapAdd())
                    .append('/').append(a.compare());
        }
        if (op.has(ExtHeader.ATOMIC_ACK_ETH)) {
            out.append(" orig ").append(rx.atomicAckEth().originalValue());
        }
        // Reading every payload byte must stay inside the buffer too.
        long sum = 0;
        for (int i = 0; i < rx.payloadLength(); i++) {
            sum += buffer.get(rx.payloadOffset() + i);
        }
        return out.append(" sum=").append(sum).toString();
    }

    /** Both verifiers on exact and canaried buffers: same answer, no exception. */
    private void verifyBoth(byte[] b, Random r) {
        for (IcrcVerifier v : new IcrcVerifier[] {anyId, strict}) {
            boolean exact = v.verifyIpv4(SRC, DST, SPORT, DPORT, ByteBuffer.wrap(b), 0, b.length);
            int before = r.nextInt(16);
            byte[] big = Fuzz.embed(b, before, r.nextInt(32), r);
            assertThat(v.verifyIpv4(SRC, DST, SPORT, DPORT, ByteBuffer.wrap(big), before, b.length)).isEqualTo(exact);
            byte[] v6 = new byte[16];
            assertThat(v.verifyIpv6(v6, v6, SPORT, DPORT, ByteBuffer.wrap(big), before, b.length))
                    .isEqualTo(v.verifyIpv6(v6, v6, SPORT, DPORT, ByteBuffer.wrap(b), 0, b.length));
        }
    }

    private static String ipResult(Icrc icrc, ByteBuffer packet, int offset) {
        try {
            return icrc.computeIpPacket(packet, offset) + "/" + icrc.verifyIpPacket(packet, offset);
        } catch (IllegalArgumentException typed) {
            return "refused: " + typed.getMessage();
        }
    }

    // ------------------------------------------------------------------ generators

    /** A well-formed packet of a random supported opcode, with a correct ICRC for ID 0 and DF. */
    private static byte[] validPacket(Random r) {
        int code = SUPPORTED.get(r.nextInt(SUPPORTED.size()));
        int payload = TestPackets.payloadFor(OpcodeTable.get(code), r, r.nextBoolean() ? 16 : 1100);
        TestPackets.Packet p = TestPackets.build(code, payload, r);
        new Icrc().writeIpv4(SRC, DST, SPORT, DPORT, p.buffer(), 0, p.length());
        byte[] out = new byte[p.length()];
        p.buffer().get(0, out);
        return out;
    }

    /** Half the time: TVer 0 and a supported opcode, so the parse goes past the first checks. */
    private static byte[] plausible(byte[] b, Random r) {
        if (b.length >= Bth.LENGTH && r.nextBoolean()) {
            b[Bth.OPCODE_OFFSET] = (byte) (int) SUPPORTED.get(r.nextInt(SUPPORTED.size()));
            b[Bth.FLAGS_OFFSET] &= (byte) 0xF0; // TVer 0; pad count kept random
        }
        return b;
    }

    private static List<Integer> supportedOpcodes() {
        List<Integer> out = new ArrayList<>();
        for (int code = 0; code < 256; code++) {
            Opcode op = OpcodeTable.get(code);
            if (op.isKnown() && op.isSupported()) {
                out.add(code);
            }
        }
        return out;
    }
}
