package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jrdma.soft.wire.Bth;
import org.jrdma.soft.wire.Icrc;
import org.jrdma.verbs.Mtu;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The device's pcap holds exactly its packets, with headers whose ICRC verifies. */
class PcapCaptureTest {
    @TempDir
    Path dir;

    @Test
    void aThreePacketSendAndItsAckAreRecordedWithValidIcrcs() throws Exception {
        Path file = dir.resolve("dev.pcap");
        SoftDevice dev = FreshDevices.fresh("pcap", SoftOptions.defaults().pcap(file));
        try (RcPair p = new RcPair(dev, Mtu.MTU_256, 14, 7, 7, 12, 4096)) {
            p.postRecv(1, 0, 600);
            p.send(2, 0, 600); // 256 + 256 + 88 bytes: FIRST, MIDDLE, LAST
            assertThat(RcPair.poll(p.cqA, 1, Duration.ofSeconds(10))).hasSize(1);
            assertThat(RcPair.poll(p.cqB, 1, Duration.ofSeconds(10))).hasSize(1);
        }
        List<ByteBuffer> records = PcapReader.records(file);
        assertThat(records).hasSize(4);
        Icrc icrc = new Icrc();
        Bth bth = new Bth();
        int[] opcodes = new int[4];
        int[] psns = new int[4];
        for (int i = 0; i < 4; i++) {
            ByteBuffer r = records.get(i);
            assertThat(icrc.verifyIpPacket(r, 0)).as("ICRC of record %d", i).isTrue();
            assertThat(r.getShort(6)).as("DF, no fragment").isEqualTo((short) 0x4000);
            assertThat(r.getShort(22) & 0xFFFF).as("UDP destination port").isEqualTo(4791);
            bth.wrap(r, 28);
            opcodes[i] = bth.opcode();
            psns[i] = bth.psn();
        }
        assertThat(opcodes).containsExactly(0x00, 0x01, 0x02, 0x11);
        assertThat(psns).containsExactly(0x10, 0x11, 0x12, 0x12);

        // tshark, when installed, decodes the same file as InfiniBand BTH.
        assumeTrue(tsharkAvailable(), "tshark not installed");
        Process t = new ProcessBuilder("tshark", "-r", file.toString(), "-T", "fields", "-e", "infiniband.bth.opcode",
                "-e", "infiniband.bth.psn").redirectErrorStream(false).start();
        String out = new String(t.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(t.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(out.strip().lines().toList()).containsExactly("0\t16", "1\t17", "2\t18", "17\t18");
    }

    static boolean tsharkAvailable() {
        try {
            Process p = new ProcessBuilder("tshark", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (Exception e) {
            return false;
        }
    }
}
