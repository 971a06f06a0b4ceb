package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.jrdma.soft.wire.Aeth;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.QpState;
import org.junit.jupiter.api.Test;

/**
 * The responder as an oracle (RELIABILITY-SECURITY SEC-51, and SEC-40's DMA length), probed on
 * the wire by a {@link WirePeer}: "unknown rkey", "valid rkey, out of range" and "valid rkey,
 * no permission" must all answer NAK remote access error (0x62), so an attacker cannot tell a
 * live rkey from a dead one by the answer; the time to the answer is measured per kind and
 * printed with the Kolmogorov–Smirnov distance between the kinds (figures, not asserted: the
 * machine's load decides them). The three refusals share one code path up to the first failed
 * comparison (RemoteAccess.check), and the lookup is one hash probe in either case.
 */
class RemoteAccessOracleTest {
    private static final int SAMPLES = Integer.getInteger("jrdma.oracle.samples", 300);

    /** The three refusals, and a control: the unknown-rkey probe again, to show the noise floor of KS and AUC. */
    enum Probe { UNKNOWN_RKEY, OUT_OF_RANGE, NO_PERMISSION, CONTROL }

    @Test
    void sec51UnknownRkeyOutOfRangeAndNoPermissionGetTheSameNakCode() throws Exception {
        try (WirePeer peer = new WirePeer("oracle"); Arena arena = Arena.ofShared()) {
            MemorySegment buf = arena.allocate(4096, 64);
            buf.fill((byte) 7);
            MemoryRegion readable = peer.pd.registerMemory(buf, RcPair.REMOTE_ALL);
            MemoryRegion writeOnly = peer.pd.registerMemory(buf, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
            int unknown = readable.rkey() ^ writeOnly.rkey() ^ 0x5EC51; // not a live key (checked below)
            assertThat(unknown).isNotIn(readable.rkey(), writeOnly.rkey());

            // The harness works: a good READ is answered with its data.
            peer.sendRead(readable.addr(), readable.rkey(), 64);
            WirePeer.Reply ok = peer.receive();
            assertThat(ok.opcode()).as("a valid READ's answer").isEqualTo(WirePeer.READ_RESPONSE_ONLY);

            Map<Probe, List<Long>> nanos = new EnumMap<>(Probe.class);
            SplittableRandom order = new SplittableRandom(Long.getLong("jrdma.oracle.seed", 0x5EC51));
            int warmUp = 500 * Probe.values().length; // JIT and caches first: not measured
            for (int i = 0; i < warmUp + SAMPLES * Probe.values().length; i++) {
                Probe kind = i < warmUp ? Probe.values()[i % Probe.values().length]
                        : Probe.values()[order.nextInt(Probe.values().length)];
                long va = kind == Probe.OUT_OF_RANGE ? readable.addr() + 4096 - 32 : readable.addr();
                int rkey = switch (kind) {
                    case UNKNOWN_RKEY, CONTROL -> unknown;
                    case OUT_OF_RANGE -> readable.rkey();
                    case NO_PERMISSION -> writeOnly.rkey();
                };
                long t0 = System.nanoTime();
                peer.sendRead(va, rkey, 64);
                WirePeer.Reply r = peer.receive();
                long t = System.nanoTime() - t0;
                assertThat(r.opcode()).as("%s: the answer's opcode", kind).isEqualTo(WirePeer.ACKNOWLEDGE);
                assertThat(r.syndrome()).as("%s: the NAK code", kind).isEqualTo(Aeth.NAK_REMOTE_ACCESS_ERROR);
                assertThat(peer.qp.query().qpState()).isEqualTo(QpState.ERR);
                if (i >= warmUp) {
                    nanos.computeIfAbsent(kind, k -> new ArrayList<>()).add(t);
                }
                peer.connect();
            }
            for (Probe kind : Probe.values()) {
                System.out.printf("SEC-51 %-13s NAK 0x62 x%d, time to NAK: %s%n", kind, nanos.get(kind).size(),
                        Distributions.summary(nanos.get(kind)));
            }
            System.out.printf("SEC-51 KS distance: unknown/range %.3f, unknown/permission %.3f, range/permission %.3f%n",
                    Distributions.ks(nanos.get(Probe.UNKNOWN_RKEY), nanos.get(Probe.OUT_OF_RANGE)),
                    Distributions.ks(nanos.get(Probe.UNKNOWN_RKEY), nanos.get(Probe.NO_PERMISSION)),
                    Distributions.ks(nanos.get(Probe.OUT_OF_RANGE), nanos.get(Probe.NO_PERMISSION)));
            System.out.printf("SEC-51 noise floor (the same probe twice): KS %.3f, AUC %.3f%n",
                    Distributions.ks(nanos.get(Probe.UNKNOWN_RKEY), nanos.get(Probe.CONTROL)),
                    Distributions.auc(nanos.get(Probe.UNKNOWN_RKEY), nanos.get(Probe.CONTROL)));
            System.out.printf("SEC-51 AUC: unknown/range %.3f, unknown/permission %.3f, range/permission %.3f%n",
                    Distributions.auc(nanos.get(Probe.UNKNOWN_RKEY), nanos.get(Probe.OUT_OF_RANGE)),
                    Distributions.auc(nanos.get(Probe.UNKNOWN_RKEY), nanos.get(Probe.NO_PERMISSION)),
                    Distributions.auc(nanos.get(Probe.OUT_OF_RANGE), nanos.get(Probe.NO_PERMISSION)));
        }
    }

    /** SEC-40: a READ whose DMA length exceeds 2^31 is an invalid request (NAK 0x61), whatever the rkey. */
    @Test
    void sec40ReadLongerThan2To31BytesIsAnInvalidRequest() throws Exception {
        try (WirePeer peer = new WirePeer("dmalen"); Arena arena = Arena.ofShared()) {
            MemoryRegion mr = peer.pd.registerMemory(arena.allocate(4096, 64), RcPair.REMOTE_ALL);
            peer.sendRead(mr.addr(), mr.rkey(), (int) ((1L << 31) + 1));
            WirePeer.Reply r = peer.receive();
            assertThat(r.opcode()).isEqualTo(WirePeer.ACKNOWLEDGE);
            assertThat(r.syndrome()).as("the NAK code").isEqualTo(Aeth.NAK_INVALID_REQUEST);
            assertThat(peer.qp.query().qpState()).isEqualTo(QpState.ERR);
        }
    }
}
