package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.jrdma.soft.wire.Bth;
import org.jrdma.soft.wire.Icrc;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.Grh;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Soft devices on IPv6 addresses (issue 7 item 4): the GID is the address itself, packets go
 * over UDP/IPv6 port 4791 and carry an ICRC over the masked IPv6 header, checked exactly on
 * receive. Loopback has one IPv6 address, so most tests use one device on ::1 talking to itself
 * (as the IPv4 tests do); the two-device test runs when the host has a global or ULA address.
 * If ::1 port 4791 is taken (another process's device), the tests are skipped, not failed.
 */
class Ipv6DeviceTest {
    private static final Duration DEADLINE = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private static SoftDevice device(String name, InetAddress address, SoftOptions options) {
        SoftDevice d = new SoftDevice(new SoftDeviceSpec(name, address, 65536, false), options);
        try {
            d.open().close(); // probe: binds and releases
        } catch (VerbsException e) {
            assumeTrue(e.errno() != Errno.EADDRINUSE, "UDP [" + address.getHostAddress() + "]:4791 is taken: " + e.getMessage());
            throw e;
        }
        return d;
    }

    private static SoftDevice loopback(String name, SoftOptions options) throws Exception {
        return device(name, InetAddress.getByName("::1"), options);
    }

    @Test
    void deviceSpecsAcceptIpv6LiteralsAndRefuseWhatAGidCannotCarry() throws Exception {
        List<SoftDeviceSpec> specs = SoftDeviceDiscovery.parse("v6=::1, ula=[fd00::1], v4=10.0.0.1, m=::ffff:10.0.0.2");
        assertThat(specs).extracting(SoftDeviceSpec::name).containsExactly("v6", "ula", "v4", "m");
        assertThat(specs.get(0).address()).isEqualTo(InetAddress.getByName("::1")).isInstanceOf(Inet6Address.class);
        assertThat(specs.get(0).ethernetMtu()).isEqualTo(65536);
        assertThat(specs.get(1).address()).isEqualTo(InetAddress.getByName("fd00::1"));
        assertThat(specs.get(3).address()).as("::ffff:a.b.c.d is an IPv4 device").isInstanceOf(java.net.Inet4Address.class);
        assertThatThrownBy(() -> SoftDeviceDiscovery.parse("l=fe80::1")).hasMessageContaining("link-local");
        assertThatThrownBy(() -> SoftDeviceDiscovery.parse("l=fe80::1%eth0")).hasMessageContaining("scoped");
        assertThatThrownBy(() -> SoftDeviceDiscovery.parse("m=ff02::1")).hasMessageContaining("unicast");
        assertThatThrownBy(() -> SoftDeviceDiscovery.parse("u=::")).hasMessageContaining("unicast");
        assertThatThrownBy(() -> SoftDeviceDiscovery.parse("h=localhost")).hasMessageContaining("IPv6 literal");
        assertThatThrownBy(() -> SoftDeviceDiscovery.parse("x=fd00:::1")).hasMessageContaining("not an IPv6 address");
        assertThatThrownBy(() -> SoftDeviceDiscovery.parse("a=::1,b=0:0::1")).hasMessageContaining("duplicate address");
    }

    @Test
    void theGidIsTheIpv6AddressItself() throws Exception {
        SoftDevice dev = loopback("v6gid", SoftOptions.defaults());
        try (Context ctx = dev.open()) {
            Gid gid = ctx.queryGid(1, 0);
            assertThat(gid.toString()).isEqualTo("::1");
            assertThat(gid.isIpv4Mapped()).isFalse();
            assertThat(gid.toHex()).isEqualTo("00000000000000000000000000000001");
        }
        assertThat(dev.description()).isEqualTo("soft RoCEv2 on ::1 UDP 4791");
    }

    @Test
    void rcSendOverIpv6LoopbackWithACapturedPcapThatVerifies() throws Exception {
        Path file = dir.resolve("v6.pcap");
        SoftDevice dev = loopback("v6rc", SoftOptions.defaults().pcap(file));
        try (RcPair p = new RcPair(dev, Mtu.MTU_256, 14, 7, 7, 12, 4096)) {
            p.fill(p.bufA, 6);
            p.postRecv(1, 0, 600);
            p.send(2, 0, 600); // FIRST, MIDDLE, LAST and one ACK
            List<WorkCompletion> a = RcPair.poll(p.cqA, 1, DEADLINE);
            List<WorkCompletion> b = RcPair.poll(p.cqB, 1, DEADLINE);
            assertThat(a).extracting(w -> w.status).containsExactly(WcStatus.SUCCESS);
            assertThat(b).extracting(w -> w.status).containsExactly(WcStatus.SUCCESS);
            assertThat(b.get(0).byteLen).isEqualTo(600);
            assertThat(p.bufB.asSlice(0, 600).mismatch(p.bufA.asSlice(0, 600))).isEqualTo(-1);
            assertThat(p.hca().countersSnapshot().get("drop_bad_icrc")).isZero();
        }
        List<ByteBuffer> records = PcapReader.records(file);
        assertThat(records).hasSize(4);
        Icrc icrc = new Icrc();
        Bth bth = new Bth();
        int[] opcodes = new int[4];
        for (int i = 0; i < 4; i++) {
            ByteBuffer r = records.get(i);
            assertThat(r.get(0) >>> 4 & 0xF).as("IP version of record %d", i).isEqualTo(6);
            assertThat(r.get(6)).as("next header UDP").isEqualTo((byte) 17);
            assertThat(icrc.verifyIpPacket(r, 0)).as("ICRC of record %d", i).isTrue();
            assertThat(r.getShort(42) & 0xFFFF).as("UDP destination port").isEqualTo(4791);
            bth.wrap(r, 48);
            opcodes[i] = bth.opcode();
        }
        assertThat(opcodes).containsExactly(0x00, 0x01, 0x02, 0x11);

        // tshark, when installed, decodes the IPv6 capture as RoCEv2 (BTH opcodes, ICRC field).
        assumeTrue(PcapCaptureTest.tsharkAvailable(), "tshark not installed");
        Process t = new ProcessBuilder("tshark", "-r", file.toString(), "-d", "udp.port==4791,infiniband",
                "-o", "udp.check_checksum:TRUE", "-T", "fields", "-e", "ipv6.src", "-e", "infiniband.bth.opcode",
                "-e", "infiniband.invariant.crc", "-e", "udp.checksum.status")
                .redirectErrorStream(false).start();
        String out = new String(t.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(t.waitFor(60, TimeUnit.SECONDS)).isTrue();
        List<String> lines = out.strip().lines().toList();
        assertThat(lines).hasSize(4);
        assertThat(lines.stream().map(l -> l.split("\t")[0] + "\t" + l.split("\t")[1]).toList())
                .containsExactly("::1\t0", "::1\t1", "::1\t2", "::1\t17");
        for (int i = 0; i < 4; i++) {
            ByteBuffer r = records.get(i);
            int stored = Integer.reverseBytes(r.getInt(r.limit() - 4)); // least-significant byte first
            assertThat(Long.decode(lines.get(i).split("\t")[2])).as("tshark's ICRC field, record %d", i)
                    .isIn((long) Integer.toUnsignedLong(r.getInt(r.limit() - 4)), Integer.toUnsignedLong(stored));
            assertThat(lines.get(i).split("\t")[3]).as("tshark: UDP checksum status (0 bad, 1 good, 2 unverified)").isEqualTo("1");
        }
    }

    /**
     * SEC-11 over IPv6: a SEND with a valid ICRC to the RC QP b, from an address that is not
     * its peer (the host's other IPv6 address), is dropped as wrong source; the same from the
     * right address with one ICRC bit flipped is a bad ICRC; the receive stays posted.
     */
    @Test
    void rcDropsAForeignIpv6SourceAndABadIcrc() throws Exception {
        Optional<InetAddress> other = hostIpv6();
        assumeTrue(other.isPresent(), "no global or ULA IPv6 address on this host");
        SoftDevice dev = loopback("v6src", SoftOptions.defaults());
        try (RcPair p = new RcPair(dev, Mtu.MTU_1024, 14, 7, 7, 12, 4096);
                java.nio.channels.DatagramChannel raw = java.nio.channels.DatagramChannel.open(
                        java.net.StandardProtocolFamily.INET6)) {
            p.postRecv(1, 0, 64);
            raw.bind(new java.net.InetSocketAddress(other.get(), 0));
            int sport = ((java.net.InetSocketAddress) raw.getLocalAddress()).getPort();
            java.net.InetSocketAddress target = new java.net.InetSocketAddress(InetAddress.getByName("::1"), 4791);
            ByteBuffer pkt = ByteBuffer.allocate(12 + 8 + 4);
            pkt.putInt(0, 0x0400FFFF).putInt(4, p.b.qpNum()).putInt(8, 0x80000010); // SEND_ONLY, AckReq, b's expected PSN
            pkt.putLong(12, 0x0102030405060708L);
            new Icrc().writeIpv6(other.get().getAddress(), InetAddress.getByName("::1").getAddress(), sport, 4791,
                    pkt, 0, pkt.limit());
            raw.send(pkt.duplicate(), target);
            RcPair.await(() -> p.hca().countersSnapshot().get("drop_wrong_source") == 1, DEADLINE, "a wrong-source drop");

            // From ::1, the peer's address, but with a broken ICRC.
            try (java.nio.channels.DatagramChannel own = java.nio.channels.DatagramChannel.open(
                    java.net.StandardProtocolFamily.INET6)) {
                own.bind(new java.net.InetSocketAddress(InetAddress.getByName("::1"), 0));
                int ownPort = ((java.net.InetSocketAddress) own.getLocalAddress()).getPort();
                byte[] one = InetAddress.getByName("::1").getAddress();
                new Icrc().writeIpv6(one, one, ownPort, 4791, pkt, 0, pkt.limit());
                pkt.put(pkt.limit() - 1, (byte) (pkt.get(pkt.limit() - 1) ^ 0x10));
                own.send(pkt.duplicate(), target);
                RcPair.await(() -> p.hca().countersSnapshot().get("drop_bad_icrc") == 1, DEADLINE, "a bad-ICRC drop");
            }
            assertThat(RcPair.poll(p.cqB, 1, Duration.ofMillis(100))).as("the receive is still posted").isEmpty();
            p.send(2, 0, 64);
            assertThat(RcPair.poll(p.cqB, 1, DEADLINE)).extracting(w -> w.status).containsExactly(WcStatus.SUCCESS);
        }
    }

    @Test
    void udDatagramsCarryAnIpv6HeaderInTheGrhArea() throws Exception {
        SoftDevice dev = loopback("v6ud", SoftOptions.defaults());
        try (Context ctx = dev.open(); Arena arena = Arena.ofShared()) {
            UdSelfSend u = UdSelfSend.run(ctx, arena, DEADLINE);
            WorkCompletion recv = u.recv();
            QueuePair a = u.a();
            MemorySegment buf = u.buf();
            assertThat(recv.status).isEqualTo(WcStatus.SUCCESS);
            assertThat(recv.byteLen).isEqualTo(140);
            assertThat(recv.srcQp).isEqualTo(a.qpNum());
            MemorySegment grh = buf.asSlice(4096, Grh.BYTES);
            assertThat(grh.get(ValueLayout.JAVA_BYTE, 0) >>> 4 & 0xF).as("IPv6 version").isEqualTo(6);
            assertThat(grh.get(ValueLayout.JAVA_BYTE, 6)).as("next header UDP").isEqualTo((byte) 17);
            // payload length = UDP length: 8 + BTH 12 + DETH 8 + ImmDt 4 + 100 + ICRC 4
            assertThat(Short.toUnsignedInt(grh.get(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(java.nio.ByteOrder.BIG_ENDIAN), 4)))
                    .isEqualTo(136);
            assertThat(Grh.sourceGid(grh).toString()).isEqualTo("::1");
            assertThat(Grh.destinationGid(grh).toString()).isEqualTo("::1");
            assertThat(u.payloadIntact()).isTrue();
        }
    }

    @Test
    void anIpv6DeviceRefusesIpv4MappedGidsAndTheOtherWayRound() throws Exception {
        SoftDevice dev = loopback("v6fam", SoftOptions.defaults());
        try (Context ctx = dev.open()) {
            ProtectionDomain pd = ctx.allocPd();
            Gid v4 = Gid.of(InetAddress.getByName("127.0.0.1"));
            assertThatThrownBy(() -> pd.createAh(AhAttr.roce(v4, 0, 1))).isInstanceOf(VerbsException.class)
                    .hasMessageContaining("IPv4-mapped but this device is IPv6");
            CompletionQueue cq = ctx.createCq(4, null);
            QueuePair qp = pd.createQp(new QpInitAttr().cq(cq).cap(new QpCap(4, 4, 1, 1, 0)));
            qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(0));
            assertThatThrownBy(() -> qp.modify(new QpAttr().state(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(5)
                    .rqPsn(0).maxDestRdAtomic(1).minRnrTimer(12).ahAttr(AhAttr.roce(v4, 0, 1))))
                    .isInstanceOf(VerbsException.class).hasMessageContaining("IPv4-mapped but this device is IPv6");
        }
        SoftDevice v4dev = FreshDevices.fresh("v4fam");
        try (Context ctx = v4dev.open()) {
            ProtectionDomain pd = ctx.allocPd();
            assertThatThrownBy(() -> pd.createAh(AhAttr.roce(Gid.of(InetAddress.getByName("::1")), 0, 1)))
                    .isInstanceOf(VerbsException.class).hasMessageContaining("an IPv6 peer needs an IPv6 soft device");
        }
    }

    /** Two IPv6 devices, ::1 and the host's first global/ULA IPv6 address, when it has one. */
    @Test
    void rcSendBetweenTwoIpv6Devices() throws Exception {
        Optional<InetAddress> other = hostIpv6();
        assumeTrue(other.isPresent(), "no global or ULA IPv6 address on this host");
        SoftDevice d1 = loopback("v6one", SoftOptions.defaults());
        SoftDevice d2 = device("v6two", other.get(), SoftOptions.defaults());
        try (Context c1 = d1.open(); Context c2 = d2.open(); Arena arena = Arena.ofShared()) {
            assertThat(c2.queryGid(1, 0).toInetAddress()).isEqualTo(other.get());
            ProtectionDomain p1 = c1.allocPd();
            ProtectionDomain p2 = c2.allocPd();
            CompletionQueue q1 = c1.createCq(16, null);
            CompletionQueue q2 = c2.createCq(16, null);
            QueuePair a = p1.createQp(new QpInitAttr().cq(q1).cap(new QpCap(8, 8, 1, 1, 0)));
            QueuePair b = p2.createQp(new QpInitAttr().cq(q2).cap(new QpCap(8, 8, 1, 1, 0)));
            MemorySegment sa = arena.allocate(3000);
            MemorySegment sb = arena.allocate(3000);
            for (int i = 0; i < 3000; i++) {
                sa.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31));
            }
            MemoryRegion ma = p1.registerMemory(sa, AccessFlags.LOCAL_WRITE);
            MemoryRegion mb = p2.registerMemory(sb, AccessFlags.LOCAL_WRITE);
            connect(a, b.qpNum(), c2.queryGid(1, 0), 100, 200);
            connect(b, a.qpNum(), c1.queryGid(1, 0), 200, 100);
            b.postRecv(new RecvWorkRequest().wrId(1).sg(Sge.of(mb)));
            a.postSend(new SendWorkRequest().wrId(2).flags(SendFlags.SIGNALED).sg(Sge.of(ma)));
            assertThat(RcPair.poll(q1, 1, DEADLINE)).extracting(w -> w.status).containsExactly(WcStatus.SUCCESS);
            assertThat(RcPair.poll(q2, 1, DEADLINE)).extracting(w -> w.status).containsExactly(WcStatus.SUCCESS);
            assertThat(sb.mismatch(sa)).isEqualTo(-1);
        }
    }

    private static void connect(QueuePair qp, int remoteQpn, Gid remote, int sqPsn, int rqPsn) {
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(0));
        qp.modify(new QpAttr().state(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(remoteQpn).rqPsn(rqPsn)
                .maxDestRdAtomic(1).minRnrTimer(12).ahAttr(AhAttr.roce(remote, 0, 1)));
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(sqPsn).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(1));
    }

    private static Optional<InetAddress> hostIpv6() throws Exception {
        for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!nif.isUp() || nif.isLoopback()) {
                continue;
            }
            for (InetAddress a : Collections.list(nif.getInetAddresses())) {
                if (a instanceof Inet6Address && !a.isLinkLocalAddress() && !a.isLoopbackAddress() && !a.isMulticastAddress()) {
                    return Optional.of(InetAddress.getByAddress(a.getAddress())); // without the scope id
                }
            }
        }
        return Optional.empty();
    }
}
