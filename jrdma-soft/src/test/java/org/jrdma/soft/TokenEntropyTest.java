package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.jrdma.testkit.TokenEntropy;
import org.jrdma.testkit.TokenEntropy.Figures;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QueuePair;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How unpredictable the soft provider's tokens are (RELIABILITY-SECURITY §6.1, ReDMArk V1 and
 * V5): rkeys and QPNs as the provider hands them out, through real registrations and QP
 * creations with deregistrations and destructions interleaved at random, measured with
 * {@link TokenEntropy} (MCV H∞ of the values and of their deltas, per-byte H∞, per-bit bias)
 * and printed.
 *
 * <p>The CI sample is 100,000 registrations and 20,000 QPs (a few seconds). The catalogue's
 * long run (10^6 registrations, 10^5 QPs):
 * {@code ./mvnw -B -o -pl jrdma-soft -am test -Dtest=TokenEntropyTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Djrdma.entropy.samples=1000000} (QPs: a tenth of the samples).
 */
class TokenEntropyTest {
    private static final int SAMPLES = Integer.getInteger("jrdma.entropy.samples", 100_000);

    private SoftDevice device;
    private Context ctx;
    private ProtectionDomain pd;
    private final Arena arena = Arena.ofShared();

    @BeforeEach
    void open() {
        device = FreshDevices.fresh("tok");
        ctx = device.open();
        pd = ctx.allocPd();
    }

    @AfterEach
    void close() {
        ctx.close();
        arena.close();
    }

    /**
     * SEC-01: 10^5 (long run 10^6) registrations, half of them followed by the deregistration of
     * a random live region. Pass [derived]: H∞(rkey) ≥ 30 bits and H∞(Δ) ≥ 30 bits (per-byte
     * MCV sum), no whole value more common than chance, no biased bit, and never an rkey equal
     * to a live one.
     */
    @Test
    void sec01RkeysHaveAtLeast30BitsOfMinEntropyAndAreUniqueAmongLiveKeys() {
        MemorySegment buf = arena.allocate(64, 64);
        int access = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE;
        SplittableRandom coin = new SplittableRandom(0x5EC01);
        List<MemoryRegion> live = new ArrayList<>();
        Set<Integer> liveKeys = new HashSet<>();
        int[] rkeys = new int[SAMPLES];
        int[] lkeys = new int[SAMPLES];
        int maxLive = 0;
        for (int i = 0; i < SAMPLES; i++) {
            MemoryRegion mr = pd.registerMemory(buf, access);
            rkeys[i] = mr.rkey();
            lkeys[i] = mr.lkey();
            assertThat(liveKeys.add(mr.rkey())).as("registration %d drew the rkey of a live region", i).isTrue();
            live.add(mr);
            maxLive = Math.max(maxLive, live.size());
            if (coin.nextBoolean()) {
                int victim = coin.nextInt(live.size());
                MemoryRegion gone = live.get(victim);
                live.set(victim, live.getLast());
                live.removeLast();
                liveKeys.remove(gone.rkey());
                gone.close();
            }
        }
        Figures rkey = TokenEntropy.measure("SEC-01 rkey", rkeys, 32);
        Figures delta = TokenEntropy.measure("SEC-01 rkey Δ", TokenEntropy.deltas(rkeys, 32), 32);
        Figures lkey = TokenEntropy.measure("SEC-01 lkey", lkeys, 32);
        System.out.println(rkey);
        System.out.println(delta);
        System.out.println(lkey);
        System.out.printf("SEC-01 live regions at most %d; repeats expected by the birthday bound ≈ %.2f%n", maxLive,
                (double) SAMPLES * SAMPLES / Math.pow(2, 33));
        for (Figures f : List.of(rkey, delta, lkey)) {
            assertRandom(f, 30);
        }
    }

    /**
     * SEC-04: QPs created and destroyed at random (at most 1,000 live). QPNs are never 0, 1 or
     * ≥ 2^24 − 1 (multicast), never sequential, and H∞ ≥ 20 bits [derived] by the per-byte MCV.
     */
    @Test
    void sec04QpnsAreRandomNeverSpecialAndNeverSequential() {
        int n = Math.max(20_000, SAMPLES / 10);
        CompletionQueue cq = ctx.createCq(16, null);
        SplittableRandom coin = new SplittableRandom(0x5EC04);
        List<QueuePair> live = new ArrayList<>();
        int[] qpns = new int[n];
        int steps = 0;
        for (int i = 0; i < n; i++) {
            QueuePair qp = pd.createQp(new QpInitAttr().cq(cq).cap(new QpCap(1, 1, 1, 1, 0)));
            qpns[i] = qp.qpNum();
            assertThat(qpns[i]).as("QPN %d", i).isBetween(2, 0xFFFFFE);
            if (i > 0 && qpns[i] - qpns[i - 1] == 1) {
                steps++;
            }
            live.add(qp);
            if (live.size() > 1000 || coin.nextBoolean()) {
                int victim = coin.nextInt(live.size());
                QueuePair gone = live.get(victim);
                live.set(victim, live.getLast());
                live.removeLast();
                gone.close();
            }
        }
        Figures qpn = TokenEntropy.measure("SEC-04 QPN", qpns, 24);
        Figures delta = TokenEntropy.measure("SEC-04 QPN Δ", TokenEntropy.deltas(qpns, 24), 24);
        System.out.println(qpn);
        System.out.println(delta);
        System.out.printf("SEC-04 consecutive QPNs one apart: %d of %d (%.4f%%)%n", steps, n - 1, 100.0 * steps / (n - 1));
        assertThat(steps).as("Δ = 1 steps (pass: < 0.01%% of allocations)").isLessThanOrEqualTo((n - 1) / 10_000);
        assertRandom(qpn, 20);
        assertRandom(delta, 20);
    }

    /**
     * The assertions shared by every token: the summed per-byte H∞ reaches {@code bar}, no
     * whole value is more common than a random one would be (the whole-value H∞ within 3 bits
     * of the estimator's ceiling for n), and no bit is biased beyond 6σ.
     */
    static void assertRandom(Figures f, double bar) {
        assertThat(f.perByteMinEntropy()).as("%s: H∞ summed over bytes", f.name()).isGreaterThanOrEqualTo(bar);
        assertThat(f.wholeValueMinEntropy()).as("%s: whole-value H∞", f.name())
                .isGreaterThanOrEqualTo(Math.min(bar, f.ceiling() - 3));
        assertThat(f.maxBitBias()).as("%s: worst bit's bias", f.name()).isLessThan(TokenEntropy.biasBound(f.n()));
    }
}
