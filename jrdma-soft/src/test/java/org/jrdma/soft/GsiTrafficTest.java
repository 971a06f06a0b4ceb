package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.jrdma.soft.wire.Bth;
import org.jrdma.soft.wire.Deth;
import org.jrdma.soft.wire.DropReason;
import org.jrdma.soft.wire.Icrc;
import org.jrdma.verbs.Grh;
import org.jrdma.verbs.Qkey;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcFlags;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CM traffic between GSI QPs of two devices (ROCEV2-FACTS §7.4): a 256-byte MAD as UD SEND_ONLY
 * to QP1 with Q_Key 0x80010000 and source QP 1, the sender's address in the GRH area; what is not
 * for QP1 (wrong Q_Key, no GSI QP) dropped and counted; user QPs unable to send the CM's Q_Key.
 */
class GsiTrafficTest {
    private static final Duration DEADLINE = Duration.ofSeconds(10);
    private static final int MAD = 256;
    private static final int USER_QKEY = 0x11111111;

    @TempDir
    Path dir;

    @Test
    void aMadArrivesOnQp1WithTheSendersAddressAndIsOnTheWireAsCmTraffic() throws Exception {
        Path pcap = dir.resolve("gsi.pcap");
        try (Arena arena = Arena.ofShared();
             GsiEnd a = new GsiEnd(FreshDevices.fresh("gsi_a", SoftOptions.defaults().pcap(pcap)), arena);
             GsiEnd b = new GsiEnd(FreshDevices.fresh("gsi_b"), arena)) {
            QueuePair qpA = a.gsi();
            QueuePair qpB = b.gsi();
            MemorySegment mad = a.buf.asSlice(0, MAD);
            writeCmReq(mad, 0x1122334455667788L);
            MemorySegment in = b.buf.asSlice(0, Grh.BYTES + MAD);
            qpB.postRecv(new RecvWorkRequest().wrId(7).sg(Sge.of(b.mr, 0, Grh.BYTES + MAD)));
            qpA.postSend(new SendWorkRequest().wrId(8).flags(SendFlags.SIGNALED).sg(Sge.of(a.mr, 0, MAD))
                    .ud(a.ahTo(b), QpType.GSI_QP_NUM, Qkey.QP1));

            assertThat(RcPair.poll(a.cq, 1, DEADLINE)).singleElement()
                    .satisfies(wc -> assertThat(wc.status).isEqualTo(WcStatus.SUCCESS));
            WorkCompletion r = RcPair.poll(b.cq, 1, DEADLINE).getFirst();
            assertThat(r.status).isEqualTo(WcStatus.SUCCESS);
            assertThat(r.opcode).isEqualTo(WcOpcode.RECV);
            assertThat(r.qpNum).isEqualTo(1);
            assertThat(r.srcQp).as("DETH source QP").isEqualTo(1);
            assertThat(r.byteLen).isEqualTo(Grh.BYTES + MAD);
            assertThat(r.wcFlags & WcFlags.GRH).isEqualTo(WcFlags.GRH);
            assertThat(Grh.sourceGid(in)).as("the sender's GID from the GRH area").isEqualTo(a.gid());
            assertThat(Grh.sourceGid(in).toString()).startsWith("::ffff:127.77.");
            assertThat(Grh.destinationGid(in)).isEqualTo(b.gid());
            assertThat(in.asSlice(Grh.BYTES, MAD).mismatch(mad)).as("the MAD, byte for byte").isEqualTo(-1);
        }

        List<ByteBuffer> records = PcapReader.records(pcap);
        assertThat(records).hasSize(1);
        ByteBuffer p = records.getFirst();
        assertThat(new Icrc().verifyIpPacket(p, 0)).isTrue();
        assertThat(p.getShort(2) & 0xFFFF).as("IPv4 total length").isEqualTo(308);
        assertThat(p.getShort(24) & 0xFFFF).as("UDP length").isEqualTo(288);
        Bth bth = new Bth().wrap(p, 28);
        assertThat(bth.opcode()).as("UD SEND_ONLY").isEqualTo(0x64);
        assertThat(bth.destQp()).isEqualTo(1);
        assertThat(bth.pkey()).isEqualTo(0xFFFF);
        Deth deth = new Deth().wrap(p, 40);
        assertThat(deth.qkey()).isEqualTo(0x80010000);
        assertThat(deth.srcQp()).isEqualTo(1);

        // tshark, when installed, takes the payload for what it is: an IB CM ConnectRequest.
        assumeTrue(PcapCaptureTest.tsharkAvailable(), "tshark not installed");
        Process t = new ProcessBuilder("tshark", "-r", pcap.toString(), "-T", "fields", "-e", "infiniband.bth.opcode",
                "-e", "infiniband.bth.destqp", "-e", "infiniband.deth.q_key", "-e", "infiniband.deth.srcqp", "-e", "_ws.col.Info")
                .start();
        String out = new String(t.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(t.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String[] f = out.split("\t", -1);
        assertThat(f).hasSize(5);
        // tshark's hex widths vary by version (4.0 prints the Q_Key as 64 bits): compare numbers.
        assertThat(Long.decode(f[0])).as("opcode").isEqualTo(0x64);
        assertThat(Long.decode(f[1])).as("destination QP").isEqualTo(1);
        assertThat(Long.decode(f[2])).as("Q_Key").isEqualTo(0x80010000L);
        assertThat(Long.decode(f[3])).as("source QP").isEqualTo(1);
        assertThat(f[4]).as("info column").isEqualTo("CM: ConnectRequest");
    }

    @Test
    void aWrongQkeyToQp1IsDroppedAndCountedAndAUserQpCannotSendTheCmQkey() {
        try (Arena arena = Arena.ofShared();
             GsiEnd a = new GsiEnd(FreshDevices.fresh("gsi_user"), arena);
             GsiEnd b = new GsiEnd(FreshDevices.fresh("gsi_victim"), arena)) {
            QueuePair user = a.ud(USER_QKEY);
            QueuePair qp1 = b.gsi();
            QueuePair plain = b.ud(USER_QKEY);
            qp1.postRecv(new RecvWorkRequest().wrId(1).sg(Sge.of(b.mr, 0, Grh.BYTES + MAD)));
            plain.postRecv(new RecvWorkRequest().wrId(2).sg(Sge.of(b.mr, 1024, Grh.BYTES + MAD)));
            writeCmReq(a.buf.asSlice(0, MAD), 42);

            // The user QP's own Q_Key to QP1: a Q_Key violation.
            user.postSend(new SendWorkRequest().wrId(10).sg(Sge.of(a.mr, 0, MAD)).ud(a.ahTo(b), 1, USER_QKEY));
            RcPair.await(() -> b.hca().drops(DropReason.BAD_QKEY) == 1, DEADLINE, "QP1 drops a foreign Q_Key");
            // The CM's Q_Key asked for: the high bit makes it the QP's own, so QP1 drops it too.
            user.postSend(new SendWorkRequest().wrId(11).sg(Sge.of(a.mr, 0, MAD)).ud(a.ahTo(b), 1, Qkey.QP1));
            RcPair.await(() -> b.hca().drops(DropReason.BAD_QKEY) == 2, DEADLINE, "QP1 drops the forged CM message");
            // ... while an ordinary QP with the user QP's Q_Key does take such a datagram.
            user.postSend(new SendWorkRequest().wrId(12).sg(Sge.of(a.mr, 0, MAD)).ud(a.ahTo(b), plain.qpNum(), Qkey.QP1));
            WorkCompletion r = RcPair.poll(b.cq, 1, DEADLINE).getFirst();
            assertThat(r.wrId).as("the ordinary QP's receive, not QP1's").isEqualTo(2);
            assertThat(r.status).isEqualTo(WcStatus.SUCCESS);
            assertThat(r.srcQp).isEqualTo(user.qpNum());
            assertThat(b.hca().drops(DropReason.BAD_QKEY)).isEqualTo(2);
            assertThat(qp1.counters().get("ud_datagrams_dropped")).isEqualTo(2);
            // The dropped datagrams consumed nothing: a genuine MAD takes QP1's first receive.
            a.gsi().postSend(new SendWorkRequest().wrId(13).sg(Sge.of(a.mr, 0, MAD)).ud(a.ahTo(b), 1, Qkey.QP1));
            WorkCompletion cm = RcPair.poll(b.cq, 1, DEADLINE).getFirst();
            assertThat(cm.wrId).isEqualTo(1);
            assertThat(cm.srcQp).isEqualTo(1);
        }
    }

    /** A CM REQ's MAD header (ROCEV2-FACTS §7.5) and a body of arbitrary bytes. */
    static void writeCmReq(MemorySegment mad, long transactionId) {
        byte[] body = new byte[MAD];
        new Random(transactionId).nextBytes(body);
        MemorySegment.copy(body, 0, mad, ValueLayout.JAVA_BYTE, 0, MAD);
        ByteBuffer h = mad.asByteBuffer();
        h.put(0, (byte) 1).put(1, (byte) 0x07).put(2, (byte) 2).put(3, (byte) 0x03); // base, class CM, version 2, SEND
        h.putInt(4, 0).putLong(8, transactionId).putShort(16, (short) 0x0010).putShort(18, (short) 0).putInt(20, 0);
    }
}
