package org.jrdma.soft.golden;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jrdma.soft.wire.DropReason;
import org.jrdma.soft.wire.Icrc;
import org.jrdma.soft.wire.IcrcVerifier;
import org.jrdma.soft.wire.RxPacket;
import org.junit.jupiter.api.Test;

/**
 * IPv6 golden vectors (issue 7 item 4): the first frames of three lab runs between Linux rxe
 * (fd77::2, in the guest) and jrdma (fd77::1) over IPv6 GIDs — rc_pingpong (SEND first/middle/
 * last and ACKs both ways), ud_pingpong (UD SEND only, both ways) and ib_write_bw (rxe's ACKs of
 * our WRITEs) — cut with editcap from interop/rxe-pingpong-ipv6.sh and run-all.sh captures.
 * They pin what made the first IPv6 run fail: rxe sends UDP checksum 0 over IPv6 (which the
 * socket must opt into, UdpChecksumOptions), while its ICRC over the masked IPv6 header is the
 * one we compute.
 */
class GoldenVectorRxeIpv6Test {
    private static final byte[] RXE = address(2);
    private static final byte[] JRDMA = address(1);

    /** One IPv6 RoCEv2 frame: its IPv6 packet, from the Ethernet frame. */
    private record Frame6(String capture, int number, ByteBuffer ip) {
        byte[] src() {
            byte[] a = new byte[16];
            ip.get(8, a);
            return a;
        }

        byte[] dst() {
            byte[] a = new byte[16];
            ip.get(24, a);
            return a;
        }

        int srcPort() {
            return ip.getShort(40) & 0xFFFF;
        }

        int dstPort() {
            return ip.getShort(42) & 0xFFFF;
        }

        int udpChecksum() {
            return ip.getShort(46) & 0xFFFF;
        }

        int payloadLength() {
            return (ip.getShort(44) & 0xFFFF) - 8;
        }

        ByteBuffer payloadCopy() {
            ByteBuffer b = ByteBuffer.allocate(payloadLength());
            b.put(0, ip, 48, payloadLength());
            return b;
        }

        String what() {
            return capture + " frame " + number;
        }
    }

    @Test
    void everyFrameDecodesAndItsIcrcVerifiesExactly() {
        RxPacket rx = new RxPacket();
        IcrcVerifier verifier = new IcrcVerifier();
        Map<String, Integer> kinds = new TreeMap<>();
        for (Frame6 f : all()) {
            ByteBuffer p = f.payloadCopy();
            assertThat(rx.wrap(p, 0, p.limit())).as(f.what()).isEqualTo(DropReason.NONE);
            assertThat(rx.verifyIcrcIpv6(verifier, f.src(), f.dst(), f.srcPort(), f.dstPort()))
                    .as(f.what()).isEqualTo(DropReason.NONE);
            assertThat(verifier.lastMatch()).isEqualTo(IcrcVerifier.Match.IPV6);
            kinds.merge((Arrays.equals(f.src(), RXE) ? "rxe " : "jrdma ") + rx.opcode(), 1, Integer::sum);
            if (rx.opcode().code() == 0x64) {
                assertThat(rx.deth().qkey()).as(f.what()).isEqualTo(0x11111111); // ibv_ud_pingpong's Q_Key
            }
        }
        // both ends of each kind the three runs hold
        assertThat(kinds.keySet()).anyMatch(k -> k.startsWith("rxe ")).anyMatch(k -> k.startsWith("jrdma "));
        assertThat(kinds.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(52);
    }

    @Test
    void rxeSendsUdpChecksumZeroOverIpv6AndTheLinuxStackOnOurSideDoesNot() {
        int rxe = 0;
        int ours = 0;
        for (Frame6 f : all()) {
            if (Arrays.equals(f.src(), RXE)) {
                assertThat(f.udpChecksum()).as(f.what()).isZero();
                assertThat(f.srcPort()).as(f.what()).isNotEqualTo(4791); // rxe: a per-QP source port
                rxe++;
            } else {
                assertThat(f.src()).isEqualTo(JRDMA);
                assertThat(f.udpChecksum()).as(f.what()).isNotZero();
                assertThat(f.srcPort()).as(f.what()).isEqualTo(4791);
                ours++;
            }
        }
        assertThat(rxe).isEqualTo(16);
        assertThat(ours).isEqualTo(36);
    }

    /** Our encoder, given the packet with its ICRC cleared, writes rxe's (and our) ICRC back. */
    @Test
    void ourIpv6IcrcReproducesEveryCapturedOne() {
        Icrc icrc = new Icrc();
        for (Frame6 f : all()) {
            ByteBuffer p = f.payloadCopy();
            int stored = Icrc.stored(p, 0, p.limit());
            p.putInt(p.limit() - 4, 0);
            icrc.writeIpv6(f.src(), f.dst(), f.srcPort(), f.dstPort(), p, 0, p.limit());
            assertThat(Icrc.stored(p, 0, p.limit())).as(f.what()).isEqualTo(stored);
            assertThat(p).isEqualTo(f.payloadCopy());
        }
    }

    /** IPv6 has no ID to solve for: every single-bit flip of a payload fails (full CRC-32). */
    @Test
    void everySingleBitFlipIsCaught() {
        IcrcVerifier verifier = new IcrcVerifier();
        int flips = 0;
        for (Frame6 f : all()) {
            ByteBuffer p = f.payloadCopy();
            for (int i = 0; i < p.limit(); i += 7) {
                if (i == 4) {
                    continue; // BTH byte 4 (FECN, BECN, reserved) is masked out of the ICRC
                }
                int bit = 1 << (i % 8);
                p.put(i, (byte) (p.get(i) ^ bit));
                assertThat(verifier.verifyIpv6(f.src(), f.dst(), f.srcPort(), f.dstPort(), p, 0, p.limit()))
                        .as("%s, byte %d bit %d flipped", f.what(), i, i % 8).isFalse();
                p.put(i, (byte) (p.get(i) ^ bit));
                flips++;
            }
            assertThat(verifier.verifyIpv6(f.src(), f.dst(), f.srcPort(), f.dstPort(), p, 0, p.limit())).isTrue();
        }
        assertThat(flips).isGreaterThan(5000);
    }

    private static List<Frame6> all() {
        List<Frame6> out = new ArrayList<>();
        for (String capture : List.of("ipv6_rc_pingpong", "ipv6_ud_pingpong", "ipv6_write_bw")) {
            List<ByteBuffer> frames = GoldenCaptures.ethernetFrames(capture);
            for (int i = 0; i < frames.size(); i++) {
                ByteBuffer eth = frames.get(i);
                assertThat(eth.getShort(12) & 0xFFFF).as(capture).isEqualTo(0x86DD);
                int length = 40 + (eth.getShort(14 + 4) & 0xFFFF);
                ByteBuffer ip = ByteBuffer.allocate(length);
                ip.put(0, eth, 14, length);
                assertThat(ip.get(6)).as("next header UDP").isEqualTo((byte) 17);
                assertThat(ip.getShort(42) & 0xFFFF).isEqualTo(GoldenCaptures.ROCE_PORT);
                out.add(new Frame6(capture, i + 1, ip));
            }
        }
        assertThat(out).hasSize(52);
        return out;
    }

    private static byte[] address(int last) {
        byte[] a = new byte[16];
        a[0] = (byte) 0xfd;
        a[1] = 0x77;
        a[15] = (byte) last;
        return a;
    }
}
