package org.jrdma.soft.golden;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.soft.golden.GoldenCaptures.Frame;
import org.jrdma.soft.golden.GoldenCaptures.IndexRow;
import org.jrdma.soft.wire.AtomicAckEth;
import org.jrdma.soft.wire.AtomicEth;
import org.jrdma.soft.wire.Aeth;
import org.jrdma.soft.wire.Bth;
import org.jrdma.soft.wire.Deth;
import org.jrdma.soft.wire.DropReason;
import org.jrdma.soft.wire.ExtHeader;
import org.jrdma.soft.wire.Icrc;
import org.jrdma.soft.wire.Ieth;
import org.jrdma.soft.wire.ImmDt;
import org.jrdma.soft.wire.Opcode;
import org.jrdma.soft.wire.OpcodeTable;
import org.jrdma.soft.wire.Pad;
import org.jrdma.soft.wire.Reth;
import org.jrdma.soft.wire.RxPacket;
import org.junit.jupiter.api.Test;

/**
 * Golden vectors (issue 7 item 1): every RoCEv2 packet of every rxe capture is decoded by our
 * receive path and re-encoded by our send-side flyweights, byte for byte, ICRC included.
 */
class GoldenVectorRxeDecodeEncodeTest {
    /** Summary lines: frame number, frame length, and (for non-MAD packets) the dest QP Wireshark read. */
    private static final Pattern SUMMARY = Pattern.compile("^\\s*(\\d+)\\s.*\\sRRoCE (\\d+) (.*?)\\s*(?:QP=0x([0-9a-f]+))?(?: \\[Malformed Packet\\])?\\s*$");

    private final RxPacket rx = new RxPacket();

    /**
     * Decode: RxPacket accepts every packet with DropReason.NONE, its opcode is a known, supported
     * row of our table, and every field agrees with a reading at fixed IBA byte offsets (which
     * does not use the opcode table) and with Wireshark's summary (frame length, dest QP). The
     * counts per capture and per opcode equal INDEX.md's, so every kind it lists is seen.
     */
    @Test
    void everyCapturedPacketDecodesAndAgreesWithAnIndependentReading() {
        List<IndexRow> index = GoldenCaptures.index();
        assertThat(index).hasSize(15);
        Map<Integer, Integer> allKinds = new TreeMap<>();
        int total = 0;
        int mads = 0;
        StringBuilder report = new StringBuilder("golden vectors, RoCEv2 packets decoded per capture:\n");
        for (IndexRow row : index) {
            assertThat(GoldenCaptures.ethernetFrames(row.capture())).as(row.capture()).hasSize(row.frames());
            if (row.capture().equals(GoldenCaptures.PROBES)) {
                continue;   // not RoCEv2: probesToPort4791AreDropped
            }
            List<Frame> frames = GoldenCaptures.roceFrames(row.capture());
            assertThat(frames).as(row.capture()).hasSize(row.roceFrames());
            Map<Integer, String[]> summary = summary(row.capture());
            Map<Integer, Integer> counts = new TreeMap<>();
            int captureMads = 0;
            for (Frame f : frames) {
                String what = f.capture() + " frame " + f.number();
                ByteBuffer ip = f.ip();
                int at = f.udpPayload();
                int len = f.udpPayloadLength();
                assertThat(rx.wrap(ip, at, len)).as(what).isEqualTo(DropReason.NONE);
                int code = ip.get(at) & 0xFF;
                Opcode op = rx.opcode();
                assertThat(op.code()).as(what).isEqualTo(code);
                assertThat(op.isKnown()).as(what).isTrue();
                assertThat(op.isSupported()).as(what).isTrue();
                assertThat(OpcodeTable.get(code)).as(what).isSameAs(op);
                checkFields(what, ip, at, len, code);
                counts.merge(code, 1, Integer::sum);
                allKinds.merge(code, 1, Integer::sum);
                if (rx.bth().destQp() == 1) {
                    captureMads++;
                }
                String[] s = summary.get(f.number());
                assertThat(s).as(what + " in the summary").isNotNull();
                assertThat(Integer.parseInt(s[0])).as(what + " frame length").isEqualTo(14 + ip.limit());
                if (s[2] != null) {
                    assertThat(rx.bth().destQp()).as(what + " dest QP").isEqualTo(Integer.parseInt(s[2], 16));
                } else {
                    assertThat(s[1]).as(what).startsWith("CM: ");
                    assertThat(rx.bth().destQp()).as(what).isEqualTo(1);
                }
            }
            assertThat(counts).as(row.capture()).isEqualTo(row.opcodeCounts());
            assertThat(captureMads).as(row.capture() + " MADs to QP1").isEqualTo(row.madCount());
            total += frames.size();
            mads += captureMads;
            report.append(String.format("  %-18s %4d %s%n", row.capture(), frames.size(), names(counts)));
        }
        // Every kind INDEX.md lists: RC SEND/WRITE/READ requests and responses, ATOMICs, ACK and
        // ATOMIC ACK, UC SEND and WRITE, UD SEND, CM MADs to QP1.
        assertThat(allKinds.keySet()).containsExactlyInAnyOrder(0x00, 0x02, 0x04, 0x06, 0x07, 0x08, 0x0a, 0x0c,
                0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x24, 0x26, 0x28, 0x64);
        assertThat(total).isEqualTo(675);
        assertThat(mads).isEqualTo(15);
        report.append(String.format("  total %d packets, %d kinds, %d MADs to QP1: %s%n", total, allKinds.size(), mads,
                names(allKinds)));
        System.out.print(report);
    }

    /**
     * host_udp_probe's datagrams to 4791 ("probe\\n", 6 bytes; "guest-probe\\n", 12 bytes) are
     * not RoCEv2 (INDEX.md: 0 RoCEv2 frames): our decoder must drop every one, without throwing:
     * the 6-byte one is shorter than a BTH, the 12-byte one has TVer 5 ('u' = 0x75 in byte 1).
     * (Wireshark calls the latter "Unknown OpCode"; we, like rxe's hdr_check, check TVer first.)
     */
    @Test
    void probesToPort4791AreDropped() {
        List<Frame> probes = GoldenCaptures.roceFrames(GoldenCaptures.PROBES);
        assertThat(probes).extracting(Frame::number).containsExactly(8, 13, 22, 25);
        Map<String, DropReason> reasons = new java.util.LinkedHashMap<>();
        for (Frame f : probes) {
            DropReason reason = rx.wrap(f.ip(), f.udpPayload(), f.udpPayloadLength());
            assertThat(reason).as(f.capture() + " frame " + f.number()).isNotEqualTo(DropReason.NONE);
            reasons.put(f.number() + " (" + f.udpPayloadLength() + " bytes)", reason);
        }
        assertThat(reasons.values()).containsExactly(DropReason.RUNT, DropReason.BAD_TVER, DropReason.RUNT,
                DropReason.BAD_TVER);
        System.out.println("golden vectors: host_udp_probe's non-RoCE datagrams to 4791 dropped: " + reasons);
    }

    /** Our flyweights' getters against reads at the fixed offsets IBA vol 1 §9.2–9.5 gives. */
    private void checkFields(String what, ByteBuffer ip, int at, int len, int code) {
        Bth bth = rx.bth();
        int b1 = ip.get(at + 1) & 0xFF;
        assertThat(bth.opcode()).as(what).isEqualTo(code);
        assertThat(bth.se()).as(what).isEqualTo((b1 & 0x80) != 0);
        assertThat(bth.migReq()).as(what).isEqualTo((b1 & 0x40) != 0);
        assertThat(bth.padCount()).as(what).isEqualTo(b1 >>> 4 & 3);
        assertThat(bth.tver()).as(what).isEqualTo(b1 & 0xF).isZero();
        assertThat(bth.pkey()).as(what).isEqualTo(ip.getShort(at + 2) & 0xFFFF);
        assertThat(bth.destQp()).as(what).isEqualTo(ip.getInt(at + 4) & 0xFFFFFF);
        assertThat(bth.ackReq()).as(what).isEqualTo((ip.get(at + 8) & 0x80) != 0);
        assertThat(bth.psn()).as(what).isEqualTo(ip.getInt(at + 8) & 0xFFFFFF);
        int headers = 12;
        if (code == 0x06 || code == 0x0a || code == 0x0c || code == 0x26 || code == 0x2a) {
            Reth r = rx.reth();
            assertThat(r.va()).as(what).isEqualTo(ip.getLong(at + 12));
            assertThat(r.rkey()).as(what).isEqualTo(ip.getInt(at + 20));
            assertThat(r.dmaLength()).as(what).isEqualTo(ip.getInt(at + 24));
            headers += 16;
        }
        if (code == 0x0d || code == 0x0f || code == 0x10 || code == 0x11 || code == 0x12) {
            Aeth a = rx.aeth();
            assertThat(a.syndrome()).as(what).isEqualTo(ip.get(at + 12) & 0xFF);
            assertThat(a.msn()).as(what).isEqualTo(ip.getInt(at + 12) & 0xFFFFFF);
            assertThat(a.isAck()).as(what + " rxe sent no NAKs here").isTrue();
            headers += 4;
        }
        if (code == 0x12) {
            assertThat(rx.atomicAckEth().originalValue()).as(what).isEqualTo(ip.getLong(at + 16));
            headers += 8;
        }
        if (code == 0x13 || code == 0x14) {
            AtomicEth a = rx.atomicEth();
            assertThat(a.va()).as(what).isEqualTo(ip.getLong(at + 12));
            assertThat(a.rkey()).as(what).isEqualTo(ip.getInt(at + 20));
            assertThat(a.swapAdd()).as(what).isEqualTo(ip.getLong(at + 24));
            assertThat(a.compare()).as(what).isEqualTo(ip.getLong(at + 32));
            headers += 28;
        }
        if (code == 0x64) {
            Deth d = rx.deth();
            assertThat(d.qkey()).as(what).isEqualTo(ip.getInt(at + 12));
            assertThat(d.srcQp()).as(what).isEqualTo(ip.getInt(at + 16) & 0xFFFFFF);
            headers += 8;
        }
        assertThat(rx.opcode().headerLength()).as(what).isEqualTo(headers);
        assertThat(rx.payloadOffset()).as(what).isEqualTo(at + headers);
        assertThat(rx.padCount()).as(what).isEqualTo(b1 >>> 4 & 3);
        assertThat(rx.payloadLength()).as(what).isEqualTo(len - headers - (b1 >>> 4 & 3) - 4);
        assertThat(rx.icrcOffset()).as(what).isEqualTo(at + len - 4);
        assertThat(rx.storedIcrc()).as(what).isEqualTo(Integer.reverseBytes(ip.getInt(at + len - 4)));
    }

    /**
     * Encode: for each packet, our send-side flyweights, given the decoded fields, write the same
     * headers WireOut writes (BTH via Bth's setters in WireOut.begin's order, then the opcode row's
     * extension headers), the payload, a zeroed pad, and the ICRC computed for the captured IPv4
     * header (rxe's non-zero ID, DF). The whole UDP payload must equal the captured bytes, and the
     * ICRC must also equal Icrc.computeIpPacket over the captured IP packet.
     */
    @Test
    void ourEncoderRebuildsEveryCapturedPacketByteForByte() {
        Icrc icrc = new Icrc();
        Bth bth = new Bth();
        Map<Integer, Integer> rebuilt = new HashMap<>();
        int total = 0;
        int hostSent = 0;
        {
            for (Frame f : GoldenCaptures.allRoce()) {
                String what = f.capture() + " frame " + f.number();
                ByteBuffer ip = f.ip();
                int len = f.udpPayloadLength();
                assertThat(rx.wrap(ip, f.udpPayload(), len)).isEqualTo(DropReason.NONE);
                Opcode op = rx.opcode();
                Bth in = rx.bth();
                int payload = rx.payloadLength();

                ByteBuffer tx = ByteBuffer.allocate(len);
                // rxe's BTH fields outside the per-packet ones are WireOut's constants: P_Key 0xFFFF,
                // MigReq 0, FECN/BECN 0, TVer 0. So WireOut.begin's exact chain applies.
                assertThat(in.pkey()).as(what).isEqualTo(Bth.DEFAULT_PKEY);
                assertThat(in.migReq()).as(what).isFalse();
                assertThat(in.fecn() || in.becn()).as(what).isFalse();
                bth.wrap(tx, 0).clear().opcode(in.opcode()).se(in.se()).padCount(Pad.count(payload))
                        .pkey(Bth.DEFAULT_PKEY).destQp(in.destQp()).ackReq(in.ackReq()).psn(in.psn());
                if (op.has(ExtHeader.RETH)) {
                    new Reth().wrap(tx, op.rethOffset()).va(rx.reth().va()).rkey(rx.reth().rkey())
                            .dmaLength(rx.reth().dmaLength());
                }
                if (op.has(ExtHeader.AETH)) {
                    new Aeth().wrap(tx, op.aethOffset()).syndrome(rx.aeth().syndrome()).msn(rx.aeth().msn());
                }
                if (op.has(ExtHeader.ATOMIC_ACK_ETH)) {
                    new AtomicAckEth().wrap(tx, op.atomicAckEthOffset())
                            .originalValue(rx.atomicAckEth().originalValue());
                }
                if (op.has(ExtHeader.ATOMIC_ETH)) {
                    AtomicEth a = rx.atomicEth();
                    new AtomicEth().wrap(tx, op.atomicEthOffset()).va(a.va()).rkey(a.rkey()).swapAdd(a.swapAdd())
                            .compare(a.compare());
                }
                if (op.has(ExtHeader.DETH)) {
                    new Deth().wrap(tx, op.dethOffset()).qkey(rx.deth().qkey()).srcQp(rx.deth().srcQp());
                }
                if (op.has(ExtHeader.IMM_DT)) {
                    new ImmDt().wrap(tx, op.immDtOffset()).immediate(rx.immDt().immediate());
                }
                if (op.has(ExtHeader.IETH)) {
                    new Ieth().wrap(tx, op.iethOffset()).rkey(rx.ieth().rkey());
                }
                tx.put(op.headerLength(), ip, rx.payloadOffset(), payload);
                // pad: ByteBuffer.allocate leaves zeros, as WireOut.pad writes them
                icrc.writeIpv4(f.srcIp(), f.dstIp(), f.ipId(), f.ipFlags(), f.srcPort(), f.dstPort(), tx, 0, len);

                ByteBuffer captured = f.payloadCopy();
                if (!tx.equals(captured)) {
                    throw new AssertionError(what + " (" + op.name() + ") differs:\n ours     "
                            + GoldenCaptures.hex(tx, 0, Math.min(len, 64)) + "\n captured "
                            + GoldenCaptures.hex(captured, 0, Math.min(len, 64)));
                }
                assertThat(Icrc.stored(tx, 0, len)).as(what).isEqualTo(icrc.computeIpPacket(ip, 0));
                if (GoldenCaptures.sentByHost(f)) {
                    assertThat(f.ipId()).as(what + ": the host sends ID 0").isZero();
                    assertThat(f.srcPort()).as(what).isEqualTo(GoldenCaptures.ROCE_PORT);
                    // ... so WireOut's own ICRC call (ID 0, DF) reproduces it too
                    assertThat(icrc.computeIpv4(f.srcIp(), f.dstIp(), f.srcPort(), f.dstPort(), tx, 0, len))
                            .as(what).isEqualTo(Icrc.stored(captured, 0, len));
                    hostSent++;
                } else {
                    assertThat(f.ipId()).as(what + ": rxe's IPv4 ID").isNotZero();
                }
                assertThat(f.ipFlags()).as(what + ": rxe sets DF").isEqualTo(Icrc.IPV4_FLAGS_DF);
                rebuilt.merge(op.code(), 1, Integer::sum);
                total++;
            }
        }
        assertThat(total).isEqualTo(675);
        assertThat(rebuilt).hasSize(20);
        assertThat(hostSent).isEqualTo(10);
        System.out.printf("golden vectors: %d packets of %d kinds rebuilt byte for byte, ICRC included"
                + " (%d from rxe with non-zero IPv4 IDs, %d from the host with ID 0)%n", total, rebuilt.size(),
                total - hostSent, hostSent);
    }

    private static Map<Integer, String[]> summary(String capture) {
        Map<Integer, String[]> out = new HashMap<>();
        for (String line : GoldenCaptures.text(capture + ".summary.txt").split("\n")) {
            Matcher m = SUMMARY.matcher(line);
            if (m.matches()) {
                out.put(Integer.parseInt(m.group(1)), new String[] {m.group(2), m.group(3), m.group(4)});
            }
        }
        return out;
    }

    private static String names(Map<Integer, Integer> counts) {
        StringBuilder s = new StringBuilder();
        counts.forEach((code, n) -> s.append(s.isEmpty() ? "" : ", ").append(OpcodeTable.get(code).name())
                .append(" x").append(n));
        return s.toString();
    }
}
