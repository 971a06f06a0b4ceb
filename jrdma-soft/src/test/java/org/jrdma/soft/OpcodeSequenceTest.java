package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.WcStatus;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * RELIABILITY-SECURITY REL-25 (opcode sequence violations) and the REL-24 rule that FIRST and
 * MIDDLE packets carry exactly one MTU: forged from the peer's own address at the expected PSNs,
 * each violation is answered with a NAK (an ACK-opcode packet at the offending PSN), moves the
 * responder to ERR (class C), and the posted receive completes in error, never as a success.
 */
class OpcodeSequenceTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final int SEND_FIRST = 0x00;
    private static final int SEND_MIDDLE = 0x01;
    private static final int SEND_LAST = 0x02;
    private static final int WRITE_MIDDLE = 0x07;
    private static final int EPSN = 0x10;

    /** Packets as {opcode, payload} pairs, sent at EPSN, EPSN+1, …; the last one is the violation. */
    static Stream<Arguments> violations() {
        return Stream.of(
                Arguments.of("REL-25 a MIDDLE without a FIRST", new int[][] {{SEND_MIDDLE, 1024}}),
                Arguments.of("REL-25 a LAST without a FIRST", new int[][] {{SEND_LAST, 100}}),
                Arguments.of("REL-25 a new FIRST before the LAST", new int[][] {{SEND_FIRST, 1024}, {SEND_FIRST, 1024}}),
                Arguments.of("REL-25 a WRITE MIDDLE inside a SEND", new int[][] {{SEND_FIRST, 1024}, {WRITE_MIDDLE, 1024}}),
                Arguments.of("REL-24 a FIRST shorter than the MTU", new int[][] {{SEND_FIRST, 1000}}),
                Arguments.of("REL-24 a MIDDLE longer than the MTU", new int[][] {{SEND_FIRST, 1024}, {SEND_MIDDLE, 1028}}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("violations")
    void rel25AnOpcodeSequenceOrLengthViolationIsNakedAndEndsTheResponder(String what, int[][] packets) {
        Set<Integer> ackPsns = ConcurrentHashMap.newKeySet();
        FilteringDatagrams[] made = new FilteringDatagrams[1];
        SoftDevice dev = FreshDevices.fresh("rel25", SoftOptions.defaults().datagrams(FilteringDatagrams.factory((i, opcode, psn) -> {
            if (opcode == 0x11) {
                ackPsns.add(psn);
            }
            return false;
        }, made)));
        try (RcPair p = new RcPair(dev, Mtu.MTU_1024, 14, 7, 7, 1, 8192)) {
            p.postRecv(1, 0, 8192);
            int psn = EPSN;
            for (int[] pkt : packets) {
                Forge.fromPeer(p.hca(), Forge.packet(pkt[0], p.b.qpNum(), psn++, pkt[1], 0));
            }
            int bad = psn - 1;
            RcPair.await(() -> p.b.state() == QpState.ERR, WAIT, "b in ERR after " + what);
            RcPair.await(() -> ackPsns.contains(bad), WAIT, "a NAK at the offending PSN");
            assertThat(RcPair.poll(p.cqB, 1, WAIT)).singleElement().satisfies(wc -> {
                assertThat(wc.wrId).isEqualTo(1);
                assertThat(wc.status).isIn(WcStatus.WR_FLUSH_ERR, WcStatus.REM_INV_REQ_ERR);
            });
            // a valid FIRST before the violation did land (the receive then completes in error, so
            // its buffer is undefined, as in the spec); a lone bad packet lands nothing
            assertThat(packets.length > 1 || p.bufB.asSlice(0, 8192).elements(java.lang.foreign.ValueLayout.JAVA_BYTE)
                    .allMatch(b -> b.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0) == 0)).as("nothing of the bad message is visible")
                    .isTrue();
        }
    }
}
