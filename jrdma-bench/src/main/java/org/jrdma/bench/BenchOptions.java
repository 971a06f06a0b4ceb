package org.jrdma.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The runner's command line. */
public record BenchOptions(boolean quick, int reps, Path markdown, Path jrdmaJar, boolean noRdma, List<String> only,
                           int durationSeconds, int latIters, Duration timeout, List<String> perfArgs, boolean help) {
    public static final Path DEFAULT_JAR = Path.of("jrdma-tools", "target", "jrdma.jar");

    public static final String USAGE = """
            Usage: bench/run [options]      (java -jar jrdma-bench/target/jrdma-bench.jar [options])
            Runs jrdma perf between two processes on loopback and, right beside each run, a plain Java NIO
            baseline of the same shape (TCP streaming, UDP and TCP ping-pong, a blocking UDP ping-pong for -e)
            or jrdma's own plain run (for -q 16 and for one busy QP beside 1000 idle ones), and prints Markdown
            tables of the figures, their ratio jrdma ÷ baseline, p50/p99/p99.9 of the latency shapes, message
            rate and CPU seconds per GiB of the bandwidth shapes, allocation per operation and the issue's targets.
              --quick             short runs (≈ 512 MiB per bandwidth run, 5000 round trips), 1 rep unless --reps
              --reps N            repetitions of every shape (default 3, 1 with --quick); median [min–max] shown
              --markdown FILE     also write the report to FILE
              --jrdma JAR         the jrdma tools jar whose `perf` runs (default jrdma-tools/target/jrdma.jar)
              --no-rdma           run the baselines only
              --only LIST         comma-separated TEST, TEST@BYTES (every variant) or TEST@BYTES:VARIANT, e.g.
                                  write_bw@65536,send_lat or write_bw@65536:q16 (variants: q16, idle1000, l16, events;
                                  TEST@BYTES:plain is the shape without its variants)
              --duration S        bandwidth runs last S seconds (jrdma perf -D S) instead of a message count
              --lat-iters N       round trips per latency run (default 50000, 5000 with --quick)
              --timeout S         kill a run's two processes after S seconds (default: from the shape's size)
              --perf-args "ARGS"  more arguments for both jrdma perf processes, e.g. "-m 4096"
              -h, --help          this text
            Exit status: 0 when the table was printed (targets missed or not), 1 on failure, 2 on a usage error.
            """;

    /** A command-line mistake; the message names it. */
    public static final class UsageException extends RuntimeException {
        public UsageException(String message) {
            super(message);
        }
    }

    public static BenchOptions parse(String... args) {
        boolean quick = false;
        boolean noRdma = false;
        boolean help = false;
        Integer reps = null;
        Path markdown = null;
        Path jar = DEFAULT_JAR;
        List<String> only = List.of();
        int duration = 0;
        Integer latIters = null;
        Duration timeout = null;
        List<String> perfArgs = List.of();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--quick" -> quick = true;
                case "--no-rdma" -> noRdma = true;
                case "-h", "--help" -> help = true;
                case "--reps" -> reps = positive(a, value(args, ++i, a));
                case "--markdown" -> markdown = Path.of(value(args, ++i, a));
                case "--jrdma" -> jar = Path.of(value(args, ++i, a));
                case "--only" -> only = List.of(value(args, ++i, a).split(","));
                case "--duration" -> duration = positive(a, value(args, ++i, a));
                case "--lat-iters" -> latIters = positive(a, value(args, ++i, a));
                case "--timeout" -> timeout = Duration.ofSeconds(positive(a, value(args, ++i, a)));
                case "--perf-args" -> perfArgs = split(value(args, ++i, a));
                default -> throw new UsageException("unknown option " + a);
            }
        }
        return new BenchOptions(quick, reps != null ? reps : quick ? 1 : 3, markdown, jar, noRdma, only, duration,
                latIters != null ? latIters : 0, timeout, perfArgs, help);
    }

    /** The budget these options ask for. */
    public Budget budget() {
        Budget b = quick ? Budget.quick() : Budget.standard();
        if (durationSeconds > 0) {
            b = b.withBwSeconds(durationSeconds);
        }
        if (latIters > 0) {
            b = b.withLatIters(latIters);
        }
        return timeout == null ? b : b.withTimeout(timeout);
    }

    public Plan plan() {
        Plan p = Plan.issue();
        return only.isEmpty() ? p : p.only(only);
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new UsageException(option + " needs a value");
        }
        return args[i];
    }

    private static int positive(String option, String v) {
        try {
            int n = Integer.parseInt(v);
            if (n < 1) {
                throw new UsageException(option + " must be >= 1, got " + v);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new UsageException(option + " needs a whole number, got " + v);
        }
    }

    private static List<String> split(String s) {
        return new ArrayList<>(Arrays.stream(s.strip().split("\\s+")).filter(t -> !t.isEmpty()).toList());
    }
}
