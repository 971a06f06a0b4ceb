package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.jrdma.testkit.ChildJvm;
import org.junit.jupiter.api.Test;

/**
 * SEC-02 (RELIABILITY-SECURITY §6.1, ReDMArk V2 and V3): two provider instances, and two
 * "restarts" (fresh JVMs with the same configuration), draw unrelated rkey and QPN sequences —
 * no generator state survives a restart and none is shared in a way that lets one instance's
 * tokens predict another's. Measured: positional matches (equal values at the same index; the
 * catalogue's bar is zero in 10^5 for 32-bit keys), the longest equal prefix, values in common
 * (birthday expectation n²/2^bits), and the correlation of the sequences; all printed.
 */
class IndependentGeneratorsTest {
    private static final int N = Integer.getInteger("jrdma.sec02.samples", 5_000);

    @Test
    void sec02TwoInstancesInOneProcessDrawUnrelatedTokens() {
        StringBuilder a = new StringBuilder();
        StringBuilder b = new StringBuilder();
        TokenDump.dump(FreshDevices.fresh("gen_a"), N, a);
        TokenDump.dump(FreshDevices.fresh("gen_b"), N, b);
        compare("two instances", parse(a.toString()), parse(b.toString()));
    }

    @Test
    void sec02TwoRestartsDrawUnrelatedTokens() throws Exception {
        int n = Math.min(N, 2_000);
        Tokens first = parse(runChild(n));
        Tokens second = parse(runChild(n));
        assertThat(first.rkeys).hasSize(n);
        compare("two restarts", first, second);
    }

    private static void compare(String what, Tokens x, Tokens y) {
        report(what + " rkeys", x.rkeys, y.rkeys, 32);
        report(what + " QPNs", x.qpns, y.qpns, 24);
        assertThat(positional(x.rkeys, y.rkeys)).as("%s: rkeys equal at the same index", what).isZero();
        assertThat(prefix(x.qpns, y.qpns)).as("%s: equal QPN prefix", what).isZero();
        // 24-bit QPNs: n = 5,000 gives 3·10^-4 positional matches expected; more than 1 is no chance.
        assertThat(positional(x.qpns, y.qpns)).as("%s: QPNs equal at the same index", what).isLessThanOrEqualTo(1);
        double bound = 6 / Math.sqrt(x.rkeys.size()); // 6σ of the correlation of unrelated sequences
        assertThat(Math.abs(correlation(x.rkeys, y.rkeys))).as("%s: rkey correlation", what).isLessThan(bound);
        assertThat(Math.abs(correlation(x.qpns, y.qpns))).as("%s: QPN correlation", what).isLessThan(bound);
    }

    private static void report(String what, List<Integer> x, List<Integer> y, int bits) {
        Set<Integer> common = new HashSet<>(x);
        common.retainAll(new HashSet<>(y));
        System.out.printf("SEC-02 %s: n=%d, positional matches %d, equal prefix %d, values in common %d"
                        + " (birthday expectation %.3f), correlation %.4f%n", what, x.size(), positional(x, y), prefix(x, y),
                common.size(), (double) x.size() * y.size() / Math.pow(2, bits), correlation(x, y));
    }

    private static int positional(List<Integer> x, List<Integer> y) {
        int m = 0;
        for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
            if (x.get(i).equals(y.get(i))) {
                m++;
            }
        }
        return m;
    }

    private static int prefix(List<Integer> x, List<Integer> y) {
        int i = 0;
        while (i < Math.min(x.size(), y.size()) && x.get(i).equals(y.get(i))) {
            i++;
        }
        return i;
    }

    /** Pearson correlation of the two sequences as unsigned values, index by index. */
    private static double correlation(List<Integer> x, List<Integer> y) {
        int n = Math.min(x.size(), y.size());
        double mx = 0;
        double my = 0;
        for (int i = 0; i < n; i++) {
            mx += Integer.toUnsignedLong(x.get(i));
            my += Integer.toUnsignedLong(y.get(i));
        }
        mx /= n;
        my /= n;
        double sxy = 0;
        double sxx = 0;
        double syy = 0;
        for (int i = 0; i < n; i++) {
            double dx = Integer.toUnsignedLong(x.get(i)) - mx;
            double dy = Integer.toUnsignedLong(y.get(i)) - my;
            sxy += dx * dy;
            sxx += dx * dx;
            syy += dy * dy;
        }
        return sxy / Math.sqrt(sxx * syy);
    }

    private record Tokens(List<Integer> rkeys, List<Integer> qpns) {
    }

    private static Tokens parse(String dump) {
        List<Integer> r = new ArrayList<>();
        List<Integer> q = new ArrayList<>();
        for (String line : dump.split("\n")) {
            if (line.startsWith("r ")) {
                r.add(Integer.parseUnsignedInt(line.substring(2), 16));
            } else if (line.startsWith("q ")) {
                q.add(Integer.parseUnsignedInt(line.substring(2), 16));
            }
        }
        return new Tokens(r, q);
    }

    private static String runChild(int n) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "-cp", ChildJvm.classPath(TokenDump.class),
                TokenDump.class.getName(), Integer.toString(n)).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the child JVM ends").isTrue();
        assertThat(p.exitValue()).as("the child JVM's exit status").isZero();
        return new String(out, StandardCharsets.UTF_8);
    }
}
