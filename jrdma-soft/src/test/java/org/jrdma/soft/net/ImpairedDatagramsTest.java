package org.jrdma.soft.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.jrdma.soft.net.RecordingDatagrams.PEER;
import static org.jrdma.soft.net.RecordingDatagrams.bitsDiffering;
import static org.jrdma.soft.net.RecordingDatagrams.expected;
import static org.jrdma.soft.net.RecordingDatagrams.index;
import static org.jrdma.soft.net.RecordingDatagrams.packet;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The impairments' behaviour, driven by the test's clock (no sleeps) over a channel that
 * records what reaches the wire.
 *
 * <p>Rates are checked against the binomial (or Markov-chain) mean within 5 standard
 * deviations: with fixed seeds the outcome never changes, and 5σ would fail a correct
 * implementation on a new seed with probability below 10^-6, while a wrong rate (e.g. a loss
 * of 1.2% instead of 1% over 100 000 packets, 6σ away) fails.
 */
class ImpairedDatagramsTest {
    private static final int N = 100_000;
    private static final int LENGTH = 64;

    private final RecordingDatagrams wire = new RecordingDatagrams();
    private final long[] now = {1_000_000_000L};
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(8192);

    private ImpairedDatagrams impaired(String spec) {
        return impaired(spec, ImpairedDatagrams.DEFAULT_QUEUE_CAPACITY);
    }

    private ImpairedDatagrams impaired(String spec, int capacity) {
        return new ImpairedDatagrams(wire, Impairment.parse(spec), () -> now[0], capacity);
    }

    private void send(ImpairedDatagrams d, int index) throws IOException {
        assertThat(d.send(packet(buffer, index, LENGTH), PEER)).isTrue();
    }

    private void sendAll(ImpairedDatagrams d, int n) throws IOException {
        for (int i = 0; i < n; i++) {
            send(d, i);
        }
    }

    private static double fiveSigma(double n, double p) {
        return 5 * Math.sqrt(n * p * (1 - p));
    }

    // ------------------------------------------------------------------ loss

    @Test
    void independentLossDropsOnePercentWithinFiveSigma() throws IOException {
        for (long seed = 1; seed <= 5; seed++) {
            wire.sent.clear();
            ImpairedDatagrams d = impaired("loss=1%,seed=" + seed);
            sendAll(d, N);
            long dropped = d.counters().get("dropped");
            // σ = √(n p (1-p)) = 31.5 packets: 1000 ± 157
            assertThat((double) dropped).as("seed %d", seed).isCloseTo(N * 0.01, within(fiveSigma(N, 0.01)));
            assertThat(wire.sent).as("seed %d", seed).hasSize(N - (int) dropped);
            assertThat(d.counters()).as("seed %d", seed).containsEntry("burst_dropped", 0L).containsEntry("sent", (long) N);
        }
    }

    @Test
    void whatIsNotLostArrivesIntactAndInOrder() throws IOException {
        ImpairedDatagrams d = impaired("loss=5%,seed=11");
        sendAll(d, 10_000);
        int last = -1;
        for (byte[] b : wire.sent) {
            int i = index(b);
            assertThat(i).isGreaterThan(last);
            assertThat(b).isEqualTo(expected(i, LENGTH));
            last = i;
        }
    }

    @Test
    void zeroAndFullLossAreExact() throws IOException {
        ImpairedDatagrams none = impaired("loss=0,seed=1");
        sendAll(none, 1000);
        assertThat(wire.sent).hasSize(1000);
        wire.sent.clear();
        ImpairedDatagrams all = impaired("loss=100%,seed=1");
        sendAll(all, 1000);
        assertThat(wire.sent).isEmpty();
        assertThat(all.counters()).containsEntry("dropped", 1000L);
    }

    /**
     * Gilbert model p = 1%, r = 30% (h = 0, k = 1): the mean loss is π_bad = p/(p+r) = 3.23%
     * and a loss run lasts 1/r = 3.3 packets on average; independent loss at the same mean
     * gives runs of 1/(1-3.23%) = 1.03 packets.
     */
    @Test
    void burstLossHasTheStationaryMeanAndLongerRunsThanIndependentLoss() throws IOException {
        ImpairedDatagrams ge = impaired("burst=p:0.01/r:0.3,seed=21");
        boolean[] geLost = lostPattern(ge, N);
        double mean = new Impairment.Burst(0.01, 0.3, 0, 1).meanLoss();
        long geDropped = ge.counters().get("dropped");
        assertThat((double) geDropped).isCloseTo(N * mean, within(
                5 * burstSigma(N, 0.01, 0.3, 0, 1)));
        assertThat(ge.counters().get("burst_dropped")).isEqualTo(geDropped);

        wire.sent.clear();
        ImpairedDatagrams independent = impaired("loss=" + mean + ",seed=21");
        boolean[] iLost = lostPattern(independent, N);

        RunStats geRuns = runs(geLost);
        RunStats iRuns = runs(iLost);
        // Mean run length is geometric: 1/r = 3.33 ± (σ_L = √(1-r)/r = 2.79, over ~950 runs: ±0.45 at 5σ)
        assertThat(geRuns.mean()).isBetween(3.33 - 0.45, 3.33 + 0.45);
        assertThat(iRuns.mean()).isLessThan(1.1);
        assertThat(geRuns.longest()).isGreaterThan(2 * iRuns.longest());
    }

    @Test
    void burstLossHonoursTheLossProbabilitiesOfBothStates() throws IOException {
        // h = 0.6 (bad state delivers 60%), k = 0.99 (good state delivers 99%): mean 8.8%
        ImpairedDatagrams ge = impaired("burst=p:0.05/r:0.2/h:0.6/k:0.99,seed=22");
        sendAll(ge, N);
        double mean = new Impairment.Burst(0.05, 0.2, 0.6, 0.99).meanLoss();
        assertThat(mean).isCloseTo(0.088, within(1e-12));
        assertThat((double) ge.counters().get("dropped")).isCloseTo(N * mean,
                within(5 * burstSigma(N, 0.05, 0.2, 0.6, 0.99)));
    }

    /**
     * σ of the loss count of a Gilbert–Elliott chain over n packets: the Bernoulli noise given
     * the states, plus the state occupancy's variance, n π_b π_g (1+λ)/(1-λ) with λ = 1-p-r
     * (the two-state chain's second eigenvalue), times the squared difference of the losses.
     */
    private static double burstSigma(int n, double p, double r, double h, double k) {
        double bad = p / (p + r);
        double good = 1 - bad;
        double lossBad = 1 - h;
        double lossGood = 1 - k;
        double lambda = 1 - p - r;
        double occupancy = n * bad * good * (1 + lambda) / (1 - lambda);
        double bernoulli = n * (good * lossGood * (1 - lossGood) + bad * lossBad * (1 - lossBad));
        return Math.sqrt(bernoulli + (lossBad - lossGood) * (lossBad - lossGood) * occupancy);
    }

    private boolean[] lostPattern(ImpairedDatagrams d, int n) throws IOException {
        sendAll(d, n);
        boolean[] lost = new boolean[n];
        Arrays.fill(lost, true);
        for (byte[] b : wire.sent) {
            lost[index(b)] = false;
        }
        return lost;
    }

    private record RunStats(double mean, int longest) {
    }

    private static RunStats runs(boolean[] lost) {
        int runs = 0;
        int total = 0;
        int longest = 0;
        int current = 0;
        for (boolean l : lost) {
            if (l) {
                current++;
                total++;
                longest = Math.max(longest, current);
                if (current == 1) {
                    runs++;
                }
            } else {
                current = 0;
            }
        }
        return new RunStats(runs == 0 ? 0 : (double) total / runs, longest);
    }

    // ------------------------------------------------------------------ duplication and corruption

    @Test
    void duplicatesAreIntactCopiesRightBehindTheOriginal() throws IOException {
        ImpairedDatagrams d = impaired("dup=1%,seed=31");
        sendAll(d, N);
        long dups = d.counters().get("duplicated");
        assertThat((double) dups).isCloseTo(N * 0.01, within(fiveSigma(N, 0.01)));
        assertThat(wire.sent).hasSize(N + (int) dups);
        int pos = 0;
        int seenTwice = 0;
        for (int i = 0; i < N; i++) {
            assertThat(wire.sent.get(pos++)).isEqualTo(expected(i, LENGTH));
            if (pos < wire.sent.size() && index(wire.sent.get(pos)) == i) {
                assertThat(wire.sent.get(pos++)).isEqualTo(expected(i, LENGTH));
                seenTwice++;
            }
        }
        assertThat(seenTwice).isEqualTo(dups);
    }

    @Test
    void corruptionFlipsExactlyOneBitOfTheRightShareOfPackets() throws IOException {
        ImpairedDatagrams d = impaired("corrupt=0.1%,seed=41");
        sendAll(d, N);
        assertThat(wire.sent).hasSize(N);
        int changed = 0;
        for (int i = 0; i < N; i++) {
            int bits = bitsDiffering(wire.sent.get(i), expected(i, LENGTH));
            assertThat(bits).as("packet %d", i).isLessThanOrEqualTo(1);
            changed += bits;
        }
        assertThat((long) changed).isEqualTo(d.counters().get("corrupted"));
        // 100 ± 50 (σ = 10)
        assertThat((double) changed).isCloseTo(N * 0.001, within(fiveSigma(N, 0.001)));
    }

    /** "Anywhere in the datagram": every bit of a 64-byte packet, BTH to ICRC, gets flipped. */
    @Test
    void corruptionReachesEveryBitPosition() throws IOException {
        ImpairedDatagrams d = impaired("corrupt=10%,seed=42");
        sendAll(d, N);
        int[] hits = new int[LENGTH * 8];
        for (int i = 0; i < N; i++) {
            byte[] got = wire.sent.get(i);
            byte[] want = expected(i, LENGTH);
            for (int b = 0; b < LENGTH * 8; b++) {
                if (((got[b >>> 3] ^ want[b >>> 3]) & (0x80 >>> (b & 7))) != 0) {
                    hits[b]++;
                }
            }
        }
        // ~10 000 flips over 512 positions: 19.5 per position, Poisson; P(0) ≈ 3e-9, P(≥ 59) far smaller.
        assertThat(Arrays.stream(hits).min().orElseThrow()).isPositive();
        assertThat(Arrays.stream(hits).max().orElseThrow()).isLessThan(59);
    }

    // ------------------------------------------------------------------ reordering

    /**
     * A held-back packet leaves right after {@code gap} packets sent later than it: so every
     * packet is overtaken by 0 or exactly 3 later ones, nothing is lost or duplicated, and the
     * tail still held when sending stops leaves when its hold time is up.
     */
    @Test
    void reorderedPacketsAreOvertakenByExactlyGapLaterPacketsAndAllArrive() throws IOException {
        int n = 10_000;
        ImpairedDatagrams d = impaired("reorder=5%/gap:3/hold:200us,seed=51");
        sendAll(d, n);
        int tail = d.held();
        long reordered = d.counters().get("reordered");
        // 500 ± 109 (σ = 21.8)
        assertThat((double) reordered).isCloseTo(n * 0.05, within(fiveSigma(n, 0.05)));
        now[0] += 199_999;
        d.receive(ByteBuffer.allocate(16));
        assertThat(d.held()).isEqualTo(tail);
        now[0] += 1;
        d.receive(ByteBuffer.allocate(16));
        assertThat(d.held()).isZero();

        int[] order = wire.sent.stream().mapToInt(RecordingDatagrams::index).toArray();
        assertThat(Arrays.stream(order).sorted().toArray()).isEqualTo(java.util.stream.IntStream.range(0, n).toArray());
        int overtakenByGap = 0;
        for (int pos = 0; pos < n; pos++) {
            int overtakers = 0;
            for (int q = 0; q < pos; q++) {
                if (order[q] > order[pos]) {
                    overtakers++;
                }
            }
            if (overtakers == 3) {
                overtakenByGap++;
            } else if (order[pos] < n - 100) {
                assertThat(overtakers).as("packet %d", order[pos]).isZero();
            }
        }
        assertThat((long) overtakenByGap).isEqualTo(reordered - tail);
        assertThat(d.counters()).containsEntry("wire", (long) n).containsEntry("dropped", 0L);
    }

    /** A packet's own duplicate is not a later packet: it does not fill the original's gap. */
    @Test
    void aDuplicateDoesNotOvertakeItsOwnHeldBackOriginal() throws IOException {
        ImpairedDatagrams d = impaired("reorder=100%/gap:1,dup=100%,seed=53");
        send(d, 0);
        assertThat(wire.sent).extracting(RecordingDatagrams::index).containsExactly(0); // the copy; the original waits
        send(d, 1);
        assertThat(wire.sent).extracting(RecordingDatagrams::index).containsExactly(0, 1, 0);
        assertThat(d.held()).isEqualTo(1);
    }

    @Test
    void aHeldBackPacketIsNotStuckWhenNothingFollows() throws IOException {
        ImpairedDatagrams d = impaired("reorder=100%/gap:5/hold:300us,seed=52");
        send(d, 0);
        assertThat(d.held()).isEqualTo(1);
        now[0] += 300_000;
        d.await(1_000_000_000L); // due now: released and returns without waiting
        assertThat(wire.sent).hasSize(1);
        assertThat(wire.awaits).isEmpty();
    }

    // ------------------------------------------------------------------ delay

    @Test
    void aDelayedPacketLeavesExactlyWhenDueOnReceiveSendOrAwait() throws IOException {
        ImpairedDatagrams d = impaired("delay=100us,seed=61");
        send(d, 0);
        assertThat(wire.sent).isEmpty();
        assertThat(d.held()).isEqualTo(1);
        now[0] += 99_999;
        assertThat(d.receive(ByteBuffer.allocate(16))).isNull();
        assertThat(wire.sent).isEmpty();
        now[0] += 1;
        d.receive(ByteBuffer.allocate(16));
        assertThat(wire.sent).hasSize(1);

        send(d, 1);
        now[0] += 100_000;
        send(d, 2); // the due packet goes out first, the new one waits
        assertThat(wire.sent).extracting(RecordingDatagrams::index).containsExactly(0, 1);

        now[0] += 100_000;
        d.await(1_000_000_000L);
        assertThat(wire.sent).extracting(RecordingDatagrams::index).containsExactly(0, 1, 2);
        assertThat(d.counters()).containsEntry("delayed", 3L).containsEntry("held", 0L);
    }

    @Test
    void awaitDoesNotSleepPastTheNextDuePacket() throws IOException {
        ImpairedDatagrams d = impaired("delay=5ms,seed=62");
        d.await(1_000_000_000L);
        assertThat(wire.awaits).containsExactly(1_000_000_000L); // nothing held: the caller's timeout

        send(d, 0);
        now[0] += 1_000_000;
        d.await(1_000_000_000L);
        assertThat(wire.awaits).containsExactly(1_000_000_000L, 4_000_000L);
        d.await(2_000_000L);
        assertThat(wire.awaits).endsWith(2_000_000L); // the caller's shorter timeout stands
    }

    @Test
    void aSubMillisecondWaitParksInsteadOfSelecting() throws IOException {
        ImpairedDatagrams d = impaired("delay=200us,seed=63");
        send(d, 0);
        long t0 = System.nanoTime();
        d.await(1_000_000_000L);
        assertThat(System.nanoTime() - t0).isLessThan(500_000_000L); // parked ~200 µs, never the full second
        assertThat(wire.awaits).isEmpty();

        d.wakeup();
        t0 = System.nanoTime();
        d.await(1_000_000_000L); // a wakeup before the wait ends it at once, as a Selector's does
        assertThat(System.nanoTime() - t0).isLessThan(500_000_000L);
        assertThat(wire.wakeups).isEqualTo(1);
    }

    /** Packets 1 ms apart (more than the jitter's span): each delay is its own uniform draw. */
    @Test
    void jitterSpreadsDelaysUniformly() throws IOException {
        int n = 1000;
        ImpairedDatagrams d = impaired("delay=100us/jitter:50us,seed=64");
        long[] delay = new long[n];
        for (int i = 0; i < n; i++) {
            long sentAt = now[0];
            send(d, i);
            for (int us = 1; wire.sent.size() == i; us++) {
                now[0] = sentAt + us * 1000L;
                d.receive(ByteBuffer.allocate(16));
                delay[i] = us;
            }
            now[0] = sentAt + 1_000_000;
        }
        assertThat(wire.sent).extracting(RecordingDatagrams::index).isSorted().hasSize(n);
        long min = Arrays.stream(delay).min().orElseThrow();
        long max = Arrays.stream(delay).max().orElseThrow();
        double mean = Arrays.stream(delay).average().orElseThrow();
        // uniform on [50, 150] µs, seen on a 1 µs grid: the extremes of 1000 draws lie within ~0.5 µs of the ends
        assertThat(min).isBetween(50L, 52L);
        assertThat(max).isBetween(149L, 150L);
        // σ = 100/√12 = 28.9 µs; the mean is 100 ± 5σ/√n = ±4.6 µs, plus 0.5 µs for rounding up to the grid
        assertThat(mean).isBetween(100 - 4.6, 100 + 5.1);
    }

    /** Sent back to back, jittered packets still leave in order, none before it is due. */
    @Test
    void jitterKeepsTheOrderOfPacketsSentBackToBack() throws IOException {
        int n = 1000;
        ImpairedDatagrams d = impaired("delay=100us/jitter:50us,seed=65");
        long start = now[0];
        sendAll(d, n);
        for (int us = 0; us <= 150; us++) {
            now[0] = start + us * 1000L;
            d.receive(ByteBuffer.allocate(16));
            if (us < 50) {
                assertThat(wire.sent).isEmpty();
            }
        }
        assertThat(wire.sent).extracting(RecordingDatagrams::index).isSorted().hasSize(n);
    }

    @Test
    void heldPacketsAreCopiesNotTheCallersReusedBuffer() throws IOException {
        ImpairedDatagrams d = impaired("delay=10us,dup=100%,seed=66");
        send(d, 7);
        packet(buffer, 8, LENGTH); // the engine builds its next packet in the same buffer
        now[0] += 10_000;
        d.receive(ByteBuffer.allocate(16));
        assertThat(wire.sent).hasSize(2).allSatisfy(b -> assertThat(b).isEqualTo(expected(7, LENGTH)));
    }

    @Test
    void aFullQueueLosesTheOverflowAndCountsIt() throws IOException {
        ImpairedDatagrams d = impaired("delay=1ms,seed=66", 4);
        sendAll(d, 10);
        assertThat(d.counters()).containsEntry("held", 4L).containsEntry("overflow_dropped", 6L).containsEntry("dropped", 6L);
        now[0] += 1_000_000;
        d.receive(ByteBuffer.allocate(16));
        assertThat(wire.sent).extracting(RecordingDatagrams::index).containsExactly(0, 1, 2, 3);
    }

    @Test
    void closeClosesTheInnerChannelAndForgetsHeldPackets() throws IOException {
        ImpairedDatagrams d = impaired("delay=1ms,seed=67");
        send(d, 0);
        d.close();
        assertThat(wire.closed).isTrue();
        assertThat(d.held()).isZero();
    }

    // ------------------------------------------------------------------ determinism

    private static final String MIXED =
            "loss=5%,burst=p:0.01/r:0.3,reorder=2%/gap:2,dup=2%,corrupt=1%,delay=50us/jitter:20us";

    /** Sends n packets with the clock stepping 0–9 µs (drawn from its own seed), then drains. */
    private List<byte[]> run(String spec, int n) throws IOException {
        RecordingDatagrams out = new RecordingDatagrams();
        long[] clock = {0};
        ImpairedDatagrams d = new ImpairedDatagrams(out, Impairment.parse(spec), () -> clock[0], 1 << 16);
        SplittableRandom steps = new SplittableRandom(1234);
        ByteBuffer b = ByteBuffer.allocateDirect(LENGTH);
        for (int i = 0; i < n; i++) {
            clock[0] += steps.nextInt(10) * 1000L;
            d.send(packet(b, i, LENGTH), PEER);
            if (steps.nextInt(4) == 0) {
                d.receive(ByteBuffer.allocate(16));
            }
        }
        clock[0] += 10_000_000L;
        d.receive(ByteBuffer.allocate(16));
        assertThat(d.held()).isZero();
        return out.sent;
    }

    @Test
    void theSameSeedReplaysTheSamePacketsInTheSameOrder() throws IOException {
        List<byte[]> a = run(MIXED + ",seed=71", 20_000);
        List<byte[]> b = run(MIXED + ",seed=71", 20_000);
        assertThat(b).hasSameSizeAs(a);
        for (int i = 0; i < a.size(); i++) {
            assertThat(b.get(i)).as("datagram %d", i).isEqualTo(a.get(i));
        }
        List<byte[]> c = run(MIXED + ",seed=72", 20_000);
        boolean differ = c.size() != a.size();
        for (int i = 0; !differ && i < a.size(); i++) {
            differ = !Arrays.equals(a.get(i), c.get(i));
        }
        assertThat(differ).as("another seed, other decisions").isTrue();
    }

    /** Each knob draws its own numbers: turning on dup and reorder loses exactly the same packets. */
    @Test
    void addingKnobsDoesNotChangeWhichPacketsAreLost() throws IOException {
        int n = 20_000;
        boolean[] alone = lostIndices(run("loss=3%,seed=81", n), n);
        boolean[] mixed = lostIndices(run("loss=3%,dup=10%,reorder=5%/gap:2,delay=20us/jitter:10us,seed=81", n), n);
        assertThat(mixed).isEqualTo(alone);
    }

    private static boolean[] lostIndices(List<byte[]> sent, int n) {
        boolean[] lost = new boolean[n];
        Arrays.fill(lost, true);
        sent.forEach(b -> lost[index(b)] = false);
        return lost;
    }

    /**
     * Property, over 50 seeds of random settings and timing: once drained, every packet that
     * was not lost arrived (twice if duplicated), intact unless corrupted in exactly one bit,
     * and the counters add up: wire = sent - dropped + duplicated.
     */
    @Test
    void countersAddUpAndEverySurvivorArrivesForRandomSettings() throws IOException {
        for (long seed = 0; seed < 50; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            int jitter = r.nextInt(50);
            String spec = String.format("loss=%d%%,burst=p:0.0%d/r:0.5,reorder=%d%%/gap:%d,dup=%d%%,corrupt=%d%%,delay=%dus/jitter:%dus,seed=%d",
                    r.nextInt(10), r.nextInt(3), r.nextInt(10), 1 + r.nextInt(5), r.nextInt(10), r.nextInt(5),
                    jitter + r.nextInt(100), jitter, seed);
            int n = 5000;
            RecordingDatagrams out = new RecordingDatagrams();
            long[] clock = {0};
            ImpairedDatagrams d = new ImpairedDatagrams(out, Impairment.parse(spec), () -> clock[0], 1 << 16);
            ByteBuffer b = ByteBuffer.allocateDirect(LENGTH);
            for (int i = 0; i < n; i++) {
                clock[0] += r.nextInt(5_000);
                d.send(packet(b, i, LENGTH), PEER);
                if (r.nextBoolean()) {
                    d.receive(ByteBuffer.allocate(16));
                }
            }
            clock[0] += 10_000_000L;
            d.receive(ByteBuffer.allocate(16));

            Map<String, Long> c = d.counters();
            String why = "seed " + seed + ": " + spec + " " + c;
            assertThat(c.get("held")).as(why).isZero();
            assertThat(c.get("wire")).as(why).isEqualTo(c.get("sent") - c.get("dropped") + c.get("duplicated"));
            assertThat((long) out.sent.size()).as(why).isEqualTo(c.get("wire"));
            int[] copies = new int[n];
            int flipped = 0;
            for (byte[] got : out.sent) {
                int i = index(got);
                assertThat(i).as(why).isBetween(0, n - 1);
                copies[i]++;
                int bits = bitsDiffering(got, expected(i, LENGTH));
                assertThat(bits).as(why + " packet " + i).isLessThanOrEqualTo(1);
                flipped += bits;
            }
            assertThat((long) flipped).as(why).isEqualTo(c.get("corrupted"));
            long arrivedOnce = Arrays.stream(copies).filter(k -> k == 1).count();
            long arrivedTwice = Arrays.stream(copies).filter(k -> k == 2).count();
            long missing = Arrays.stream(copies).filter(k -> k == 0).count();
            assertThat(arrivedOnce + arrivedTwice + missing).as(why).isEqualTo(n);
            assertThat(missing).as(why).isEqualTo(c.get("dropped"));
            assertThat(arrivedTwice).as(why).isEqualTo(c.get("duplicated"));
        }
    }

    @Test
    void countersStartAtZeroAndNameEveryImpairment() {
        assertThat(impaired("seed=1").counters().keySet()).containsExactly("sent", "dropped", "burst_dropped",
                "overflow_dropped", "corrupted", "duplicated", "reordered", "delayed", "wire", "send_failures", "held");
        assertThat(new ArrayList<>(impaired("seed=1").counters().values())).containsOnly(0L);
    }
}
