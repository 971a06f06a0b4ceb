package org.jrdma.testkit.fuzz;

import java.util.HexFormat;
import java.util.Random;

/**
 * Seeded fuzz loops for parser tests (issue 6 item 7; jqwik is not used, see README). A loop
 * runs a small number of cases in CI; the same test runs longer and with another seed by command:
 *
 * <pre>
 * ./mvnw -B -o -pl jrdma-soft -am test -Dtest='*FuzzTest' -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Djrdma.fuzz.iterations=10000000 [-Djrdma.fuzz.seed=N]
 * </pre>
 *
 * Case {@code i} draws from {@code new Random(seed + i * STRIDE)}, so case 0 of seed N is
 * exactly the case reported as "case seed N". A failure names the case seed and the last input
 * the body recorded; rerunning with {@code -Djrdma.fuzz.seed=<case seed> -Djrdma.fuzz.iterations=1}
 * replays that one case.
 */
public final class Fuzz {
    /** System property: cases per loop, overriding every loop's CI count. */
    public static final String ITERATIONS = "jrdma.fuzz.iterations";
    /** System property: the base seed, overriding every loop's fixed default. */
    public static final String SEED = "jrdma.fuzz.seed";
    /** Odd 64-bit constant (the golden ratio) that spreads case seeds apart. */
    private static final long STRIDE = 0x9E3779B97F4A7C15L;
    private static final int MAX_REPORTED_BYTES = 600;

    private Fuzz() {
    }

    /** One generated case: its random source and the input it built, for the failure report. */
    public static final class Case {
        private final Random random;
        private final long seed;
        private final long index;
        private String input = "(none recorded)";

        Case(long seed, long index) {
            this.seed = seed;
            this.index = index;
            this.random = new Random(seed);
        }

        /**
         * The case's random source, seeded with {@link #seed()}.
         *
         * @return the source
         */
        public Random random() {
            return random;
        }

        /**
         * The case seed, which replays this case alone.
         *
         * @return the seed
         */
        public long seed() {
            return seed;
        }

        /**
         * The case's number in the loop, from 0.
         *
         * @return the index
         */
        public long index() {
            return index;
        }

        /**
         * Records the bytes under test, so a failure prints them; returns them for chaining.
         *
         * @param bytes the input
         * @return {@code bytes}
         */
        public byte[] input(byte[] bytes) {
            input = bytes.length + " bytes: " + HexFormat.of().formatHex(bytes, 0, Math.min(bytes.length, MAX_REPORTED_BYTES))
                    + (bytes.length > MAX_REPORTED_BYTES ? "…" : "");
            return bytes;
        }

        /**
         * Records a textual input.
         *
         * @param text the input
         * @return {@code text}
         */
        public String input(String text) {
            input = text.length() + " chars: " + (text.length() > MAX_REPORTED_BYTES ? text.substring(0, MAX_REPORTED_BYTES) + "…" : text);
            return text;
        }
    }

    /** The body of a loop; any exception or assertion failure fails the case. */
    @FunctionalInterface
    public interface Body {
        /**
         * Checks one case.
         *
         * @param c the case, with its random source
         * @throws Exception to fail the case
         */
        void check(Case c) throws Exception;
    }

    /**
     * The number of cases: {@value #ITERATIONS} if set, else {@code ciIterations}.
     *
     * @param ciIterations the count for CI
     * @return the count
     */
    public static long iterations(long ciIterations) {
        return iterations(ciIterations, 1);
    }

    /**
     * The number of cases when each case costs about {@code weight} ordinary ones (a case that
     * parses every prefix of a packet): {@value #ITERATIONS} / weight if set (at least 1), else
     * {@code ciIterations}. So one long-run count suits every loop.
     *
     * @param ciIterations the count for CI
     * @param weight how many ordinary cases one case costs, at least 1
     * @return the count
     */
    public static long iterations(long ciIterations, int weight) {
        String v = System.getProperty(ITERATIONS);
        return v == null || v.isBlank() ? ciIterations : Math.max(1, Long.parseLong(v.strip()) / weight);
    }

    /**
     * The base seed: {@value #SEED} if set, else {@code defaultSeed}.
     *
     * @param defaultSeed the loop's fixed seed
     * @return the seed
     */
    public static long seed(long defaultSeed) {
        String v = System.getProperty(SEED);
        return v == null || v.isBlank() ? defaultSeed : Long.decode(v.strip());
    }

    /**
     * Runs {@code body} for {@link #iterations} cases and prints one line with the count, seed and
     * time, so a long run shows what it covered.
     *
     * @param name the loop's name, for the report
     * @param ciIterations the count for CI
     * @param defaultSeed the loop's fixed seed
     * @param body checks one case
     * @throws AssertionError naming the case seed and input of the first failing case
     */
    public static void run(String name, long ciIterations, long defaultSeed, Body body) {
        run(name, ciIterations, 1, defaultSeed, body);
    }

    /**
     * {@link #run(String, long, long, Body)} for cases that each cost about {@code weight} ordinary ones.
     *
     * @param name the loop's name, for the report
     * @param ciIterations the count for CI
     * @param weight how many ordinary cases one case costs
     * @param defaultSeed the loop's fixed seed
     * @param body checks one case
     * @throws AssertionError naming the case seed and input of the first failing case
     */
    public static void run(String name, long ciIterations, int weight, long defaultSeed, Body body) {
        long n = iterations(ciIterations, weight);
        long base = seed(defaultSeed);
        long start = System.nanoTime();
        for (long i = 0; i < n; i++) {
            Case c = new Case(base + i * STRIDE, i);
            try {
                body.check(c);
            } catch (Throwable t) {
                throw new AssertionError(name + ": case " + i + " failed; replay with -D" + SEED + "=" + c.seed
                        + " -D" + ITERATIONS + "=1 (base seed " + base + ")\n  input " + c.input + "\n  " + t, t);
            }
        }
        System.out.printf("fuzz %s: %d cases, seed %d, %.1f s%n", name, n, base, (System.nanoTime() - start) / 1e9);
    }

    // ------------------------------------------------------------------ generators

    /**
     * Random bytes.
     *
     * @param r the random source
     * @param length how many
     * @return the bytes
     */
    public static byte[] randomBytes(Random r, int length) {
        byte[] b = new byte[length];
        r.nextBytes(b);
        return b;
    }

    /**
     * A mutation of a valid {@code seed}: one to four edits among bit flips, byte overwrites with
     * random or boundary values (0, 0xFF, 0x7F, 0x80), truncation, extension, insertion, deletion
     * and duplication of a range. The seed itself is not changed.
     *
     * @param seed a valid input
     * @param r the random source
     * @return the mutant
     */
    public static byte[] mutate(byte[] seed, Random r) {
        byte[] b = seed.clone();
        for (int edits = 1 + r.nextInt(4); edits > 0; edits--) {
            b = edit(b, r);
        }
        return b;
    }

    /**
     * {@code bits} bits flipped at random positions (the ICRC and header checks' basic case).
     *
     * @param seed a valid input, not changed
     * @param r the random source
     * @param bits how many flips (a bit may flip back)
     * @return the mutant
     */
    public static byte[] flipBits(byte[] seed, Random r, int bits) {
        byte[] b = seed.clone();
        if (b.length == 0) {
            return b;
        }
        for (int i = 0; i < bits; i++) {
            int bit = r.nextInt(b.length * 8);
            b[bit >>> 3] ^= (byte) (1 << (bit & 7));
        }
        return b;
    }

    private static final byte[] BOUNDARY = {0, (byte) 0xFF, 0x7F, (byte) 0x80, 1, ':', '0', 'f'};

    private static byte[] edit(byte[] b, Random r) {
        int op = r.nextInt(8);
        if (b.length == 0 && op < 3) {
            op = 4;
        }
        switch (op) {
            case 0 -> {
                int bit = r.nextInt(b.length * 8);
                b[bit >>> 3] ^= (byte) (1 << (bit & 7));
                return b;
            }
            case 1 -> {
                b[r.nextInt(b.length)] = (byte) r.nextInt(256);
                return b;
            }
            case 2 -> {
                b[r.nextInt(b.length)] = BOUNDARY[r.nextInt(BOUNDARY.length)];
                return b;
            }
            case 3 -> {
                return java.util.Arrays.copyOf(b, r.nextInt(b.length + 1)); // truncate
            }
            case 4 -> {
                byte[] longer = java.util.Arrays.copyOf(b, b.length + 1 + r.nextInt(8)); // extend
                for (int i = b.length; i < longer.length; i++) {
                    longer[i] = (byte) r.nextInt(256);
                }
                return longer;
            }
            case 5 -> { // insert one byte
                int at = r.nextInt(b.length + 1);
                byte[] out = new byte[b.length + 1];
                System.arraycopy(b, 0, out, 0, at);
                out[at] = (byte) r.nextInt(256);
                System.arraycopy(b, at, out, at + 1, b.length - at);
                return out;
            }
            case 6 -> { // delete a range
                if (b.length == 0) {
                    return b;
                }
                int at = r.nextInt(b.length);
                int len = 1 + r.nextInt(Math.min(8, b.length - at));
                byte[] out = new byte[b.length - len];
                System.arraycopy(b, 0, out, 0, at);
                System.arraycopy(b, at + len, out, at, b.length - at - len);
                return out;
            }
            default -> { // copy a range over another place (splices fields into each other)
                if (b.length < 2) {
                    return b;
                }
                int from = r.nextInt(b.length);
                int to = r.nextInt(b.length);
                int len = 1 + r.nextInt(Math.min(8, Math.min(b.length - from, b.length - to)));
                System.arraycopy(b, from, b, to, len);
                return b;
            }
        }
    }

    /**
     * {@code message} at offset {@code before} in a larger array whose other bytes are a random
     * canary: a parser given the range {@code [before, before + message.length)} that reads outside
     * it sees the canary, so its result changes between two different canaries.
     *
     * @param message the message
     * @param before canary bytes before it
     * @param after canary bytes after it
     * @param r the random source of the canary
     * @return the larger array
     */
    public static byte[] embed(byte[] message, int before, int after, Random r) {
        byte[] big = randomBytes(r, before + message.length + after);
        System.arraycopy(message, 0, big, before, message.length);
        return big;
    }
}
