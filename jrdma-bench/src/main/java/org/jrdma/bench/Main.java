package org.jrdma.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * {@code jrdma-bench}: jrdma perf beside plain Java NIO on loopback, as a Markdown table.
 * Exit status 0 when the table was printed (a missed target is a finding, not a failure:
 * a benchmark is not a test), 1 when it could not run, 2 on a usage error.
 */
public final class Main {
    static final int EXIT_OK = 0;
    static final int EXIT_FAILURE = 1;
    static final int EXIT_USAGE = 2;

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        BenchOptions o;
        try {
            o = BenchOptions.parse(args);
            if (o.help()) {
                out.print(BenchOptions.USAGE);
                return EXIT_OK;
            }
            o.plan();
        } catch (BenchOptions.UsageException | IllegalArgumentException e) {
            err.println("jrdma-bench: " + e.getMessage());
            err.println("Try 'bench/run --help'.");
            return EXIT_USAGE;
        }
        RdmaSide rdma = null;
        if (!o.noRdma()) {
            if (!Files.isRegularFile(o.jrdmaJar())) {
                err.println("jrdma-bench: no jrdma tools jar at " + o.jrdmaJar().toAbsolutePath()
                        + ": build it (./mvnw -pl jrdma-tools -am package, which bench/run does), pass --jrdma JAR, or run --no-rdma");
                return EXIT_FAILURE;
            }
            ProcessRdmaSide side = ProcessRdmaSide.forJar(ProcessBaselineSide.thisJava(), o.jrdmaJar(), o.perfArgs());
            Optional<String> problem = side.preflight(Duration.ofSeconds(60));
            if (problem.isPresent()) {
                err.println("jrdma-bench: jrdma perf does not run: " + problem.get());
                err.println("jrdma-bench: (--no-rdma runs the baselines alone)");
                return EXIT_FAILURE;
            }
            rdma = side;
        }
        for (String v : ProcessRdmaSide.UNSET_ENV) {
            if (System.getenv(v) != null) {
                err.println("jrdma-bench: note: " + v + " is set; the benchmark's processes run without it");
            }
        }
        return run(o, rdma, ProcessBaselineSide.ofThisJvm(), out, err);
    }

    /** Runs with the given sides (tests pass fakes) and prints the report. */
    static int run(BenchOptions o, RdmaSide rdma, BaselineSide baselines, PrintStream out, PrintStream err) {
        MachineInfo start = MachineInfo.now();
        List<Row> rows = new BenchRunner(o.plan(), o.budget(), o.reps(), rdma, baselines, err).run();
        MachineInfo end = MachineInfo.now();
        String md = Report.markdown(new Report.Context(start, end, o.reps(), o.budget(),
                rdma == null ? null : rdma.description(), baselines.description()), rows);
        out.print(md);
        out.flush();
        if (o.markdown() != null) {
            try {
                Path parent = o.markdown().toAbsolutePath().getParent();
                if (parent != null) {
                    Files.createDirectories(parent);
                }
                Files.writeString(o.markdown(), md);
            } catch (IOException e) {
                err.println("jrdma-bench: could not write " + o.markdown() + ": " + e.getMessage());
                return EXIT_FAILURE;
            }
        }
        return EXIT_OK;
    }
}
