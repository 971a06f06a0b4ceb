package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import org.jrdma.soft.engine.SourceCheck;
import org.jrdma.soft.transport.QpCounter;
import org.jrdma.soft.wire.DropReason;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.WorkCompletion;
import org.junit.jupiter.api.Test;

/**
 * RELIABILITY-SECURITY SEC-11 and SEC-12: a connected RC QP takes packets only from its peer's
 * address and, in strict mode (the default), only from the peer's pinned UDP source port. The
 * attacker is {@link Attacker} (H3) on a real socket; victim and honest peer are real devices.
 */
class SourceCheckTest {
    private static final Duration QUIET = Duration.ofMillis(200);

    /** SEC-11: correct QPN and PSN from a foreign IP: every packet dropped as wrong source, none accepted. */
    @Test
    void sec11ForeignAddressIsDroppedAndCountedEveryTime() throws Exception {
        int packets = Integer.getInteger("jrdma.sec11.packets", 20_000);
        SoftDevice foreign = FreshDevices.fresh("sec11_foreign"); // a free 127.77.x.y, never connected
        InetAddress foreignIp = foreign.spec().address();
        try (VictimPair p = new VictimPair("sec11", SourceCheck.STRICT, 4096, 1);
             Attacker h3 = Attacker.bind(foreignIp, 0)) {
            p.postRecvB(1, 0, 64);
            ByteBuffer forged = Attacker.sendOnly(p.b.qpNum(), VictimPair.A_TO_B_PSN, marker(0xEE, 16));
            long t0 = System.nanoTime();
            p.floodB(h3, packets, i -> forged, () -> p.dropsB(DropReason.WRONG_SOURCE));
            VictimPair.await(() -> p.dropsB(DropReason.WRONG_SOURCE) == packets, "every forged packet counted");
            long nanos = System.nanoTime() - t0;
            System.out.printf("SEC-11: %d forged packets from %s dropped as wrong source, 0 accepted, %.0f packets/s%n",
                    packets, foreignIp.getHostAddress(), packets * 1e9 / nanos);
            assertThat(VictimPair.poll(p.cqB, 1, QUIET)).isEmpty();
            assertThat(p.b.query().rqPsn()).isEqualTo(VictimPair.A_TO_B_PSN);
            // The honest peer's SEND at the same PSN still lands.
            p.sendAtoB(7, 0, 64);
            assertThat(VictimPair.poll(p.cqB, 1, VictimPair.DEADLINE)).singleElement()
                    .satisfies(wc -> assertThat(wc.wrId).isEqualTo(1));
        }
    }

    /**
     * SEC-12 strict: once the honest peer's first SEND pinned its port, an unprivileged process on
     * the peer's own IP, with the right QPN and PSN, is dropped as wrong source port — every time.
     */
    @Test
    void sec12StrictRejectsColocatedInjectionFromAnotherPort() throws Exception {
        try (VictimPair p = new VictimPair("sec12s", SourceCheck.STRICT, 4096, 1);
             Attacker h3 = Attacker.bind(p.ipA(), 0)) {
            p.postRecvB(1, 0, 64);
            p.postRecvB(2, 64, 64);
            assertThat(p.pinnedAtB()).isZero();
            p.sendAtoB(10, 0, 32);
            assertThat(VictimPair.poll(p.cqB, 1, VictimPair.DEADLINE)).hasSize(1);
            assertThat(p.pinnedAtB()).isEqualTo(p.victimA().getPort()); // the device's own port, 4791

            int attempts = 1000;
            int ePsn = VictimPair.A_TO_B_PSN + 1;
            ByteBuffer forged = Attacker.sendOnly(p.b.qpNum(), ePsn, marker(0xEE, 16));
            p.floodB(h3, attempts, i -> forged, () -> p.dropsB(DropReason.WRONG_SOURCE_PORT));
            VictimPair.await(() -> p.dropsB(DropReason.WRONG_SOURCE_PORT) == attempts, "every injection counted");
            assertThat(VictimPair.poll(p.cqB, 1, QUIET)).as("acceptance in strict mode").isEmpty();
            assertThat(p.b.query().rqPsn()).isEqualTo(ePsn);
            p.sendAtoB(11, 0, 32); // the pinned peer carries on
            assertThat(VictimPair.poll(p.cqB, 1, VictimPair.DEADLINE)).singleElement()
                    .satisfies(wc -> assertThat(wc.wrId).isEqualTo(2));
            System.out.printf("SEC-12 strict: %d co-located injections from %s, 0 accepted%n", attempts, h3.address());
        }
    }

    /**
     * SEC-12 compat (address only, for peers that vary their source port): the same injection is
     * accepted — the documented risk — and lands attacker bytes in the victim's receive buffer.
     */
    @Test
    void sec12CompatAcceptsColocatedInjectionTheDocumentedRisk() throws Exception {
        try (VictimPair p = new VictimPair("sec12c", SourceCheck.COMPAT, 4096, 1);
             Attacker h3 = Attacker.bind(p.ipA(), 0)) {
            p.postRecvB(1, 0, 64);
            p.sendAtoB(10, 0, 32);
            assertThat(VictimPair.poll(p.cqB, 1, VictimPair.DEADLINE)).hasSize(1);
            assertThat(p.pinnedAtB()).as("compat pins nothing").isZero();
            p.postRecvB(2, 64, 64);
            h3.send(Attacker.sendOnly(p.b.qpNum(), VictimPair.A_TO_B_PSN + 1, marker(0xEE, 16)), p.victimB());
            WorkCompletion wc = VictimPair.poll(p.cqB, 1, VictimPair.DEADLINE).getFirst();
            assertThat(wc.wrId).isEqualTo(2);
            assertThat(wc.byteLen).isEqualTo(16);
            assertThat(p.bufB.get(ValueLayout.JAVA_BYTE, 64)).isEqualTo((byte) 0xEE);
            assertThat(p.dropsB(DropReason.WRONG_SOURCE_PORT)).isZero();
        }
    }

    /**
     * The pin is claimed only by progress: before the peer's first packet, a duplicate-window or
     * ahead-of-window packet from another port does not pin (an off-path attacker must know the PSN).
     */
    @Test
    void sec12OnlyAPacketThatMakesProgressPinsThePort() throws Exception {
        try (VictimPair p = new VictimPair("sec12p", SourceCheck.STRICT, 4096, 1);
             Attacker h3 = Attacker.bind(p.ipA(), 0)) {
            p.postRecvB(1, 0, 64);
            h3.send(Attacker.sendOnly(p.b.qpNum(), VictimPair.A_TO_B_PSN - 1, marker(1, 8)), p.victimB()); // duplicate
            h3.send(Attacker.sendOnly(p.b.qpNum(), VictimPair.A_TO_B_PSN + 5, marker(2, 8)), p.victimB()); // ahead
            VictimPair.await(() -> p.hcaB().count(QpCounter.DUPLICATE_REQUESTS) == 1
                    && p.hcaB().count(QpCounter.OUT_OF_SEQUENCE) == 1, "both seen by the responder");
            assertThat(p.pinnedAtB()).isZero();
            p.sendAtoB(10, 0, 32);
            assertThat(VictimPair.poll(p.cqB, 1, VictimPair.DEADLINE)).hasSize(1);
            assertThat(p.pinnedAtB()).isEqualTo(p.victimA().getPort());
            assertThat(p.b.state()).isEqualTo(QpState.RTS);
        }
    }

    @Test
    void theSwitchParsesStrictAndCompatAndRejectsAnythingElse() {
        assertThat(SourceCheck.parse("strict")).isEqualTo(SourceCheck.STRICT);
        assertThat(SourceCheck.parse(" COMPAT ")).isEqualTo(SourceCheck.COMPAT);
        assertThatThrownBy(() -> SourceCheck.parse("off")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(SourceCheck.PROPERTY).hasMessageContaining("strict or compat");
        String old = System.getProperty(SourceCheck.PROPERTY);
        try {
            System.clearProperty(SourceCheck.PROPERTY);
            if (System.getenv(SourceCheck.ENV) == null) {
                assertThat(SoftOptions.defaults().sourceCheck()).isEqualTo(SourceCheck.STRICT); // default on
            }
            System.setProperty(SourceCheck.PROPERTY, "compat");
            assertThat(SoftOptions.defaults().sourceCheck()).isEqualTo(SourceCheck.COMPAT);
        } finally {
            if (old == null) {
                System.clearProperty(SourceCheck.PROPERTY);
            } else {
                System.setProperty(SourceCheck.PROPERTY, old);
            }
        }
    }

    static byte[] marker(int value, int length) {
        byte[] b = new byte[length];
        Arrays.fill(b, (byte) value);
        return b;
    }
}
