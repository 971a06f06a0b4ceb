package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.jrdma.soft.engine.SoftHca;
import org.jrdma.soft.wire.Bth;
import org.jrdma.soft.wire.DropReason;
import org.jrdma.soft.wire.OpcodeTable;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/**
 * RELIABILITY-SECURITY REL-03 (runts and truncation) and REL-04 (header validation), end to
 * end through a device's socket: every malformed case is dropped silently, counted under its
 * own reason, and changes nothing — the target QP stays RTS, its posted receive is not
 * consumed, its expected PSN does not move (the genuine SEND afterwards lands in that very
 * receive), and nothing completes on either side. Also SEC-30's "from a foreign source there is
 * no effect": a WRITE with a bad rkey at the expected PSN, which from the peer would kill the
 * connection, is dropped when it comes from another address.
 */
class HeaderValidationTest {
    private static final Duration DEADLINE = Duration.ofSeconds(20);
    private static final int SEND_ONLY = 0x04;
    private static final int SEND_FIRST = 0x00;
    private static final int WRITE_ONLY = 0x0A;
    private static final int ACK = 0x11;
    private static final int UC_SEND_ONLY = 0x24;
    private static final int UD_SEND_ONLY = 0x64;
    /** b's expected PSN (RcPair connects a→b starting at 0x10). */
    private static final int EPSN = 0x10;

    @Test
    void rel03RuntsAndTruncatedHeadersAreDroppedAsRuntsOrBadLengths() {
        try (RcPair p = new RcPair(FreshDevices.fresh("rel03"), Mtu.MTU_1024, 14, 7, 7, 12, 4096)) {
            p.postRecv(1, 0, 64);
            int b = p.b.qpNum();
            // shorter than a BTH: 0..11 bytes
            expect(p, DropReason.RUNT, 12, hca -> {
                for (int n = 0; n < Bth.LENGTH; n++) {
                    ByteBuffer pkt = ByteBuffer.allocateDirect(n);
                    Forge.raw(hca, pkt);
                }
            });
            // a BTH but not the RETH a WRITE_ONLY needs, nor the AETH of an ACK, nor room for the ICRC
            expect(p, DropReason.RUNT, 3, hca -> {
                Forge.raw(hca, truncated(SEND_ONLY, b, 2)); // BTH + half an ICRC
                Forge.raw(hca, truncated(WRITE_ONLY, b, 8 + 4)); // BTH + 8 of 16 RETH bytes + ICRC
                Forge.raw(hca, truncated(ACK, b, 0)); // BTH alone: no AETH, no ICRC
            });
            // the pad disagrees with the payload: more pad than bytes, pad on a FIRST, bytes after an ACK's headers
            expect(p, DropReason.BAD_LENGTH, 3, hca -> {
                ByteBuffer overPadded = Forge.packet(SEND_ONLY, b, EPSN, 0, 0);
                new Bth().wrap(overPadded, 0).padCount(3);
                Forge.fromPeer(hca, overPadded);
                Forge.fromPeer(hca, Forge.packet(SEND_FIRST, b, EPSN, 1024 - 1, 1)); // pad on a FIRST
                Forge.fromPeer(hca, Forge.packet(ACK, b, EPSN, 8, 0));
            });
            assertUntouched(p);
        }
    }

    @Test
    void rel04BadHeadersAreDroppedEachUnderItsOwnCounterAndChangeNothing() throws Exception {
        try (RcPair p = new RcPair(FreshDevices.fresh("rel04"), Mtu.MTU_1024, 14, 7, 7, 12, 4096)) {
            p.postRecv(1, 0, 64);
            int b = p.b.qpNum();
            expect(p, DropReason.BAD_TVER, 3, hca -> {
                for (int tver : new int[] {1, 7, 15}) {
                    ByteBuffer pkt = Forge.packet(SEND_ONLY, b, EPSN, 64, 0);
                    new Bth().wrap(pkt, 0).tver(tver);
                    Forge.fromPeer(hca, pkt);
                }
            });
            // QPN 0 (never created), QPN 1 (no GSI QP on this device), and a QPN nobody has
            expect(p, DropReason.UNKNOWN_QPN, 3, hca -> {
                Forge.fromPeer(hca, Forge.packet(SEND_ONLY, 0, EPSN, 64, 0));
                Forge.fromPeer(hca, Forge.packet(UD_SEND_ONLY, 1, EPSN, 64, 0));
                Forge.fromPeer(hca, Forge.packet(SEND_ONLY, unusedQpn(p), EPSN, 64, 0));
            });
            // UC and UD opcodes to an RC QP
            expect(p, DropReason.WRONG_TRANSPORT, 2, hca -> {
                Forge.fromPeer(hca, Forge.packet(UC_SEND_ONLY, b, EPSN, 64, 0));
                Forge.fromPeer(hca, Forge.packet(UD_SEND_ONLY, b, EPSN, 64, 0));
            });
            // every reserved or unknown opcode (RD, the reserved ranges, vendor space): the siw opcode-range bug
            int[] unknown = java.util.stream.IntStream.range(0, 256).filter(c -> !OpcodeTable.get(c).isKnown()).toArray();
            assertThat(unknown).hasSizeGreaterThan(100);
            expect(p, DropReason.UNKNOWN_OPCODE, unknown.length, hca -> {
                for (int code : unknown) {
                    Forge.fromPeer(hca, Forge.packet(code, b, EPSN, 16, 0));
                }
            });
            expect(p, DropReason.UNSUPPORTED_OPCODE, 1, hca -> Forge.fromPeer(hca, Forge.packet(OpcodeTable.CNP, b, 0, 16, 0)));
            expect(p, DropReason.BAD_PKEY, 1, hca -> {
                ByteBuffer pkt = Forge.packet(SEND_ONLY, b, EPSN, 64, 0);
                new Bth().wrap(pkt, 0).pkey(0x7FFF);
                Forge.fromPeer(hca, pkt);
            });
            expect(p, DropReason.BAD_ICRC, 1, hca -> {
                ByteBuffer pkt = Forge.sign(Forge.packet(SEND_ONLY, b, EPSN, 64, 0), hca.localAddress(), hca.localAddress());
                pkt.put(pkt.capacity() - 1, (byte) (pkt.get(pkt.capacity() - 1) ^ 1));
                Forge.raw(hca, pkt);
            });
            assertUntouched(p);
        }
    }

    @Test
    void rel04RequestsToAQpInResetInitOrErrAreDroppedAsBadState() {
        try (RcPair p = new RcPair(FreshDevices.fresh("rel04st"), Mtu.MTU_1024, 14, 7, 7, 12, 4096)) {
            p.postRecv(1, 0, 64);
            QueuePair reset = p.pd.createQp(new QpInitAttr().cq(p.cqB).cap(new QpCap(4, 4, 1, 1, 0)));
            QueuePair init = p.pd.createQp(new QpInitAttr().cq(p.cqB).cap(new QpCap(4, 4, 1, 1, 0)));
            init.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(RcPair.REMOTE_ALL));
            QueuePair err = p.pd.createQp(new QpInitAttr().cq(p.cqB).cap(new QpCap(4, 4, 1, 1, 0)));
            err.modify(new QpAttr().state(QpState.ERR));
            expect(p, DropReason.BAD_QP_STATE, 6, hca -> {
                for (QueuePair q : new QueuePair[] {reset, init, err}) {
                    Forge.fromPeer(hca, Forge.packet(SEND_ONLY, q.qpNum(), 0, 64, 0));
                    Forge.fromPeer(hca, Forge.packet(WRITE_ONLY, q.qpNum(), 0, 64, 0));
                }
            });
            assertThat(reset.state()).isEqualTo(QpState.RESET);
            assertThat(init.state()).isEqualTo(QpState.INIT);
            assertThat(err.state()).isEqualTo(QpState.ERR);
            assertThat(RcPair.poll(p.cqB, 1, Duration.ofMillis(50))).isEmpty();
            reset.close();
            init.close();
            err.close();
            assertUntouched(p);
        }
    }

    /**
     * SEC-30: one WRITE at b's expected PSN with a bad rkey kills the connection when it comes
     * from a's address (class C: both QPs to ERR, rxe and the spec agree); from any other
     * address it is a counted drop and nothing else.
     */
    @Test
    void sec30AConnectionKillingPacketFromAForeignSourceDoesNothing() throws Exception {
        SoftDevice dev = FreshDevices.fresh("sec30");
        SoftDevice other = FreshDevices.fresh("sec30_attacker");
        try (RcPair p = new RcPair(dev, Mtu.MTU_1024, 14, 7, 7, 12, 4096, RcPair.REMOTE_ALL, RcPair.REMOTE_ALL, 1);
             DatagramChannel attacker = DatagramChannel.open().bind(new InetSocketAddress(other.spec().address(), 0))) {
            p.postRecv(1, 0, 64);
            InetSocketAddress target = p.hca().localAddress();
            expect(p, DropReason.WRONG_SOURCE, 1, hca -> {
                try {
                    attacker.send(Forge.sign(badRkeyWrite(p.b.qpNum()), (InetSocketAddress) attacker.getLocalAddress(), target)
                            .clear(), target);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            assertUntouched(p);
            // The same packet from the peer's address does kill b (the spec's class C), which is
            // what makes the source check above the only line of defence off-host.
            ByteBuffer kill = badRkeyWrite(p.b.qpNum());
            new Bth().wrap(kill, 0).psn(EPSN + 1); // the genuine SEND of assertUntouched took EPSN
            Forge.fromPeer(p.hca(), kill);
            RcPair.await(() -> p.b.state() == QpState.ERR, DEADLINE, "b in ERR after the genuine-source bad-rkey WRITE");
        }
    }

    /** A seeded garbage generator: no exception escapes, every datagram is counted under some reason, nothing changes. */
    @Test
    void rel03RandomDatagramsAreAllCountedAsDropsAndChangeNothing() {
        SplittableRandom random = new SplittableRandom(0x4E1_03L);
        try (RcPair p = new RcPair(FreshDevices.fresh("rel03fz"), Mtu.MTU_1024, 14, 7, 7, 12, 4096)) {
            p.postRecv(1, 0, 64);
            int b = p.b.qpNum();
            for (int batch = 0; batch < 10; batch++) {
                long before = totalDrops(p.hca());
                for (int i = 0; i < 200; i++) {
                    ByteBuffer pkt = ByteBuffer.allocateDirect(random.nextInt(300));
                    for (int j = 0; j < pkt.capacity(); j++) {
                        pkt.put(j, (byte) random.nextInt());
                    }
                    if (pkt.capacity() >= Bth.LENGTH && random.nextBoolean()) {
                        new Bth().wrap(pkt, 0).destQp(b).tver(0).pkey(Bth.DEFAULT_PKEY); // aimed at b: gets past the first checks
                    }
                    Forge.raw(p.hca(), pkt); // the ICRC is random: 2^-32 to pass
                }
                RcPair.await(() -> totalDrops(p.hca()) == before + 200, DEADLINE, "200 counted drops");
            }
            assertUntouched(p);
        }
    }

    private static ByteBuffer badRkeyWrite(int destQp) {
        ByteBuffer pkt = Forge.packet(WRITE_ONLY, destQp, EPSN, 64, 0);
        pkt.putInt(Bth.LENGTH + 8, 0x0BAD0BAD); // RETH rkey; va and length follow
        pkt.putInt(Bth.LENGTH + 12, 64);
        return pkt;
    }

    private static ByteBuffer truncated(int opcode, int destQp, int afterBth) {
        ByteBuffer pkt = ByteBuffer.allocateDirect(Bth.LENGTH + afterBth);
        new Bth().wrap(pkt, 0).clear().opcode(opcode).pkey(Bth.DEFAULT_PKEY).destQp(destQp).psn(EPSN);
        return pkt;
    }

    private static int unusedQpn(RcPair p) {
        int q = 0x00ABCDEF;
        while (p.hca().qp(q) != null) {
            q++;
        }
        return q;
    }

    /** Runs {@code inject} and waits until exactly {@code n} drops of {@code reason} were counted, and no other drop. */
    private static void expect(RcPair p, DropReason reason, int n, Consumer<SoftHca> inject) {
        Map<DropReason, Long> before = drops(p.hca());
        inject.accept(p.hca());
        RcPair.await(() -> p.hca().drops(reason) >= before.get(reason) + n, DEADLINE, n + " drops of " + reason);
        Map<DropReason, Long> after = drops(p.hca());
        for (DropReason r : DropReason.values()) {
            assertThat(after.get(r) - before.get(r)).as("drops of %s", r).isEqualTo(r == reason ? n : 0);
        }
    }

    private static Map<DropReason, Long> drops(SoftHca hca) {
        Map<DropReason, Long> m = new EnumMap<>(DropReason.class);
        for (DropReason r : DropReason.values()) {
            m.put(r, hca.drops(r));
        }
        return m;
    }

    private static long totalDrops(SoftHca hca) {
        long n = 0;
        for (DropReason r : DropReason.values()) {
            n += hca.drops(r);
        }
        return n;
    }

    /** Nothing completed, b is RTS with its receive posted and its expected PSN unchanged: the genuine SEND lands in it. */
    private static void assertUntouched(RcPair p) {
        assertThat(RcPair.poll(p.cqB, 1, Duration.ofMillis(20))).isEmpty();
        assertThat(RcPair.poll(p.cqA, 1, Duration.ofMillis(1))).isEmpty();
        assertThat(p.a.state()).isEqualTo(QpState.RTS);
        assertThat(p.b.state()).isEqualTo(QpState.RTS);
        p.fill(p.bufA, 77);
        p.a.postSend(new SendWorkRequest().wrId(9).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED).sg(Sge.of(p.mrA, 0, 64)));
        assertThat(RcPair.poll(p.cqB, 1, DEADLINE)).singleElement().satisfies(wc -> {
            assertThat(wc.wrId).isEqualTo(1);
            assertThat(wc.status).isEqualTo(WcStatus.SUCCESS);
            assertThat(wc.byteLen).isEqualTo(64);
        });
        assertThat(RcPair.poll(p.cqA, 1, DEADLINE)).singleElement().satisfies(wc -> assertThat(wc.status).isEqualTo(WcStatus.SUCCESS));
        assertThat(p.bufB.asSlice(0, 64).mismatch(p.bufA.asSlice(0, 64))).isEqualTo(-1);
    }
}
