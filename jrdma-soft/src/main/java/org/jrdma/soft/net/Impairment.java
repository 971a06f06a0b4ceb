package org.jrdma.soft.net;

import java.math.BigDecimal;
import java.util.SplittableRandom;

/**
 * What {@link ImpairedDatagrams} does to a device's outgoing packets: the knobs of Linux
 * {@code tc netem} (RELIABILITY-SECURITY §4.4) plus the seed that makes every decision replay.
 *
 * <p>Text form, as {@link #parse} reads and {@link #toString} writes it (items in any order,
 * each at most once; a probability is {@code 0.01} or {@code 1%}; a time is {@code 100us},
 * {@code 2ms} or {@code 1s}, in whole microseconds):
 *
 * <pre>
 * loss=1%                          independent loss            (netem: loss random 1%)
 * burst=p:0.01/r:0.3[/h:0][/k:1]   Gilbert–Elliott loss        (netem: loss gemodel p r 1-h 1-k)
 * reorder=1%[/gap:1][/hold:500us]  hold a packet back          (netem: reorder … gap, see below)
 * dup=1%                           send a second, intact copy  (netem: duplicate 1%)
 * corrupt=0.1%                     flip one random bit         (netem: corrupt 0.1%)
 * delay=100us[/jitter:50us]        delay, uniform ± jitter     (netem: delay 100us 50us)
 * seed=42                          the PRNG seed; chosen at random when absent
 * </pre>
 *
 * @param loss probability that a packet is lost, independently of every other packet
 * @param burst the Gilbert–Elliott model, {@link Burst#OFF} for none; a packet is lost when
 *     either {@code loss} or {@code burst} loses it
 * @param reorder probability that a packet is held back until {@code reorderGap} packets sent
 *     after it have gone out (or {@code reorderHoldMicros} passed, so the last packet of a
 *     burst is not stuck); netem instead sends the chosen packet early and delays the rest,
 *     which needs a delay — holding one back reorders without one
 * @param reorderGap how many later packets overtake a held-back packet (1 = swap with the next)
 * @param reorderHoldMicros the longest a held-back packet waits (on top of any delay)
 * @param duplicate probability that a packet is sent twice
 * @param corrupt probability that one uniformly chosen bit of the datagram (BTH to ICRC) is
 *     flipped, so that the receiver's ICRC check must catch it
 * @param delayMicros fixed delay of every packet
 * @param jitterMicros each packet's delay is uniform in {@code delay ± jitter}, but a packet
 *     never leaves before the one sent before it: jitter does not reorder (netem's does unless
 *     a rate is set; use {@code reorder} for that)
 * @param seed the seed of the decisions: the same seed and the same sequence of sends give
 *     the same decisions
 */
public record Impairment(double loss, Burst burst, double reorder, int reorderGap, long reorderHoldMicros,
        double duplicate, double corrupt, long delayMicros, long jitterMicros, long seed) {

    public static final int DEFAULT_REORDER_GAP = 1;
    public static final long DEFAULT_REORDER_HOLD_MICROS = 500;
    static final int MAX_REORDER_GAP = 1000;
    /** Longer delays are not a network any more; the cap also keeps nanosecond arithmetic far from overflow. */
    static final long MAX_DELAY_MICROS = 60_000_000L;

    /**
     * Gilbert–Elliott burst loss, with netem's {@code loss gemodel p r 1-h 1-k} meaning: two
     * states, good and bad; after each packet the chain moves good→bad with probability
     * {@code p} and bad→good with probability {@code r}. In the good state a packet is
     * delivered with probability {@code k} (lost with 1-k), in the bad state with probability
     * {@code h} (lost with 1-h). {@code h} and {@code k} are thus delivery probabilities, as in
     * the classic model and netem's man page; netem's command line takes 1-h and 1-k. The
     * defaults h = 0, k = 1 (netem's 1-h = 100%, 1-k = 0%) make the simple Gilbert model: every
     * packet in the bad state is lost and none in the good state, so bursts last 1/r packets
     * on average.
     */
    public record Burst(double p, double r, double h, double k) {
        /** Never leaves the good state, where nothing is lost. */
        public static final Burst OFF = new Burst(0, 1, 0, 1);

        public Burst {
            requireProbability("burst p", p);
            requireProbability("burst r", r);
            requireProbability("burst h", h);
            requireProbability("burst k", k);
        }

        /** True when this model can never lose a packet. */
        public boolean isOff() {
            return k == 1 && (p == 0 || h == 1);
        }

        /**
         * The long-run loss rate: the stationary share of each state times its loss
         * probability, π_bad = p / (p + r).
         */
        public double meanLoss() {
            if (p + r == 0) {
                return 1 - k; // the chain never moves; it starts good
            }
            double bad = p / (p + r);
            return (1 - bad) * (1 - k) + bad * (1 - h);
        }
    }

    public Impairment {
        requireProbability("loss", loss);
        if (burst == null) {
            throw new IllegalArgumentException("impairment: burst must not be null (use Burst.OFF)");
        }
        requireProbability("reorder", reorder);
        requireProbability("dup", duplicate);
        requireProbability("corrupt", corrupt);
        if (reorderGap < 1 || reorderGap > MAX_REORDER_GAP) {
            throw new IllegalArgumentException("impairment reorder: gap must be 1.." + MAX_REORDER_GAP + ", got " + reorderGap);
        }
        requireMicros("reorder hold", reorderHoldMicros);
        requireMicros("delay", delayMicros);
        requireMicros("delay jitter", jitterMicros);
        if (jitterMicros > delayMicros) {
            throw new IllegalArgumentException("impairment delay: jitter " + jitterMicros + "us exceeds the delay "
                    + delayMicros + "us (a packet cannot leave before it is sent)");
        }
        if (burst.isOff()) {
            burst = Burst.OFF; // one spelling of "no burst loss", so parse(toString()) is equal
        }
        if (reorder == 0) {
            reorderGap = DEFAULT_REORDER_GAP; // likewise: gap and hold mean nothing without reorder
            reorderHoldMicros = DEFAULT_REORDER_HOLD_MICROS;
        }
    }

    /** No impairment at all, with this seed. */
    public static Impairment none(long seed) {
        return new Impairment(0, Burst.OFF, 0, DEFAULT_REORDER_GAP, DEFAULT_REORDER_HOLD_MICROS, 0, 0, 0, 0, seed);
    }

    /** A seed for a run that did not name one; it is printed with the rest so the run replays. */
    static long randomSeed() {
        return new SplittableRandom().nextLong();
    }

    /** The same impairment with another seed. */
    public Impairment withSeed(long newSeed) {
        return new Impairment(loss, burst, reorder, reorderGap, reorderHoldMicros, duplicate, corrupt, delayMicros,
                jitterMicros, newSeed);
    }

    /** True when some packet may be lost, held, copied or changed. */
    public boolean isActive() {
        return loss > 0 || !burst.isOff() || reorder > 0 || duplicate > 0 || corrupt > 0 || delayMicros > 0;
    }

    /**
     * Reads the text form (see the class comment).
     *
     * @throws IllegalArgumentException naming the key at fault, for unknown or repeated keys,
     *     malformed numbers, probabilities outside [0, 1], and missing or unknown sub-keys
     */
    public static Impairment parse(String text) {
        return ImpairmentParser.parse(text);
    }

    /** The text form, seed included: {@code parse(toString())} equals this impairment. */
    @Override
    public String toString() {
        StringBuilder s = new StringBuilder();
        if (loss > 0) {
            s.append("loss=").append(ImpairmentParser.percent(loss)).append(',');
        }
        if (!burst.isOff()) {
            s.append("burst=p:").append(ImpairmentParser.decimal(burst.p()))
                    .append("/r:").append(ImpairmentParser.decimal(burst.r()))
                    .append("/h:").append(ImpairmentParser.decimal(burst.h()))
                    .append("/k:").append(ImpairmentParser.decimal(burst.k())).append(',');
        }
        if (reorder > 0) {
            s.append("reorder=").append(ImpairmentParser.percent(reorder)).append("/gap:").append(reorderGap)
                    .append("/hold:").append(ImpairmentParser.time(reorderHoldMicros)).append(',');
        }
        if (duplicate > 0) {
            s.append("dup=").append(ImpairmentParser.percent(duplicate)).append(',');
        }
        if (corrupt > 0) {
            s.append("corrupt=").append(ImpairmentParser.percent(corrupt)).append(',');
        }
        if (delayMicros > 0) {
            s.append("delay=").append(ImpairmentParser.time(delayMicros));
            if (jitterMicros > 0) {
                s.append("/jitter:").append(ImpairmentParser.time(jitterMicros));
            }
            s.append(',');
        }
        return s.append("seed=").append(seed).toString();
    }

    private static void requireProbability(String what, double p) {
        if (!(p >= 0 && p <= 1)) { // also rejects NaN
            throw new IllegalArgumentException("impairment " + what + ": probability must be in [0, 1], got " + p);
        }
    }

    private static void requireMicros(String what, long micros) {
        if (micros < 0 || micros > MAX_DELAY_MICROS) {
            throw new IllegalArgumentException("impairment " + what + ": must be 0.." + MAX_DELAY_MICROS + "us, got " + micros + "us");
        }
    }

    /** Exact decimal of a double as its shortest round-tripping form, without exponent. */
    static BigDecimal exact(double d) {
        return new BigDecimal(Double.toString(d));
    }
}
