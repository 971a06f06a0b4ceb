package org.jrdma.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Runs {@code jrdma perf <test>} as two processes, as a person would: the server first (no
 * host), then, once it listens on its TCP port, the client ({@code 127.0.0.1}). No device
 * flags: the server's default device binds 127.0.0.1 and the client's moves to 127.0.0.2.
 * Figures come from {@code --out_json} (the file of {@code --out_json_file}, else the JSON in
 * standard output), the client's first; allocation is the larger of the two sides'. Latency
 * runs give their p99 and p99.9 too; every run, the CPU its two processes used from the end of
 * their set-up (perf's {@code setupCpuSeconds}) to their exit ({@link ChildCpu}).
 */
public final class ProcessRdmaSide implements RdmaSide {
    /** Environment that would change what is measured or where: the children run without it. */
    public static final Set<String> UNSET_ENV = Set.of("JRDMA_SOFT_DEVICES", "JRDMA_IMPAIR", "JRDMA_PCAP_DIR");
    private static final long LISTEN_POLL_MILLIS = 20;

    private final List<String> perfCommand;
    private final List<String> extraArgs;
    private final Path scratch;
    private final String description;

    /**
     * @param perfCommand the command up to and including {@code perf}, e.g.
     *                    {@code java --enable-native-access=ALL-UNNAMED -jar jrdma.jar perf}
     * @param extraArgs   appended to both sides' arguments (e.g. {@code -m 4096})
     */
    public ProcessRdmaSide(List<String> perfCommand, List<String> extraArgs, String description) {
        this.perfCommand = List.copyOf(perfCommand);
        this.extraArgs = List.copyOf(extraArgs);
        this.description = description;
        try {
            this.scratch = Files.createTempDirectory("jrdma-bench-");
            this.scratch.toFile().deleteOnExit();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code java --enable-native-access=ALL-UNNAMED -jar JAR perf}, as {@code ./jrdma} runs it. */
    public static ProcessRdmaSide forJar(String java, Path jar, List<String> extraArgs) {
        List<String> cmd = List.of(java, "--enable-native-access=ALL-UNNAMED", "-jar", jar.toString(), "perf");
        return new ProcessRdmaSide(cmd, extraArgs, "jrdma perf (" + jar + ")" + (extraArgs.isEmpty() ? "" : " " + String.join(" ", extraArgs)));
    }

    @Override
    public String description() {
        return description;
    }

    /**
     * Whether {@code perf --help} answers with perf's own usage (exit 0, "perf" in its first
     * line: picocli answers an unknown subcommand with {@code --help} by the top-level usage)
     * within the timeout; the reason when not, so a runner without a working jrdma perf says so
     * once instead of once per shape.
     */
    public Optional<String> preflight(Duration timeout) {
        List<String> cmd = new ArrayList<>(perfCommand);
        cmd.add("--help");
        try (Child c = Child.start("jrdma perf --help", cmd, UNSET_ENV)) {
            if (!c.awaitExit(System.nanoTime() + timeout.toNanos())) {
                return Optional.of(String.join(" ", cmd) + ": no answer within " + timeout.toSeconds() + " s");
            }
            if (c.exitValue() != 0) {
                return Optional.of(String.join(" ", cmd) + ": " + c.exitReason());
            }
            List<String> out = c.stdout().stream().filter(l -> !l.isBlank()).toList();
            if (out.isEmpty() || !out.getFirst().contains("perf")) {
                return Optional.of(String.join(" ", cmd) + " printed no perf usage (first line: "
                        + (out.isEmpty() ? "none" : out.getFirst().strip()) + ")");
            }
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of(String.join(" ", cmd) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted");
        }
    }

    /** The arguments of one side: perftest's flags, then the host for the client. */
    List<String> arguments(Shape shape, Budget budget, int port, Path jsonFile, boolean client) {
        List<String> args = new ArrayList<>(List.of(shape.test(), "-s", String.valueOf(shape.sizeBytes()), "-p", String.valueOf(port)));
        if (shape.kind() == Kind.BANDWIDTH && budget.bwTimed()) {
            args.addAll(List.of("-D", String.valueOf(budget.bwSeconds())));
        } else {
            long iters = iterations(shape, budget);
            args.addAll(List.of("-n", String.valueOf(iters)));
            // the same unmeasured warm-up as the baselines get (Budget), through jrdma perf's
            // own --warmup (perftest's --perform_warm_up posts one unmeasured queue, too little
            // here): a JVM measured cold measures its compiler
            long warmup = shape.kind() == Kind.LATENCY ? budget.latWarmup() : Budget.warmupOf(iters);
            args.addAll(List.of("--warmup", String.valueOf(warmup)));
        }
        args.addAll(List.of("--out_json", "--out_json_file", jsonFile.toString(), "--report-alloc"));
        args.addAll(shape.variant().perfArgs());
        args.addAll(extraArgs);
        if (client) {
            args.add("127.0.0.1");
        }
        return args;
    }

    /**
     * perf's {@code -n} for a count-mode run: a latency run's round trips, or a bandwidth run's
     * messages shared among the QPs that carry traffic ({@code -n} is per QP), so that -q 16
     * moves what -q 1 does; with {@code -l N} rounded down to a multiple of N (perf requires it).
     */
    static long iterations(Shape shape, Budget budget) {
        if (shape.kind() == Kind.LATENCY) {
            return budget.latIters();
        }
        long perQp = Math.max(1, budget.bwIters(shape.sizeBytes(), shape.variant() == Variant.SHM) / shape.variant().qps());
        int list = shape.variant().postList();
        return Math.max(list, perQp / list * list);
    }

    /**
     * The GiB a bandwidth run moves, warm-up included (what the CPU of the whole processes is
     * divided by): count mode (-n + --warmup) × QPs × size; a timed run, its figure × -D (its
     * few unmeasured moments are left out). NaN for latency.
     */
    static double gibMoved(Shape shape, Budget budget, double mibPerSec) {
        if (shape.kind() != Kind.BANDWIDTH) {
            return Double.NaN;
        }
        if (budget.bwTimed()) {
            return mibPerSec * budget.bwSeconds() / 1024;
        }
        long iters = iterations(shape, budget);
        return (double) (iters + Budget.warmupOf(iters)) * shape.variant().qps() * shape.sizeBytes() / (1L << 30);
    }

    @Override
    public Outcome run(Shape shape, Budget budget) {
        double cpuBefore = ChildCpu.reapedSeconds();
        double[] setup = {Double.NaN};
        Outcome o = runPair(shape, budget, setup);
        if (o instanceof Outcome.Ok ok) {
            // both children have exited and been reaped: their CPU is in ours
            double cpu = ChildCpu.traffic(cpuBefore, ChildCpu.reapedSeconds(), setup[0]);
            return ok.withCpu(cpu, gibMoved(shape, budget, ok.value()));
        }
        return o;
    }

    /** The CPU both sides had used when their session was set up (perf's setupCpuSeconds), NaN unless both said. */
    static double setupCpu(PerfResult client, PerfResult server) {
        return client == null || server == null ? Double.NaN : client.get("setupCpuSeconds") + server.get("setupCpuSeconds");
    }

    private Outcome runPair(Shape shape, Budget budget, double[] setup) {
        long deadline = System.nanoTime() + budget.timeout(shape.kind(), shape.sizeBytes()).toNanos();
        String tag = shape.test() + "-" + shape.sizeBytes() + (shape.variant().name().isEmpty() ? "" : "-" + shape.variant().name());
        Path serverJson = scratch.resolve(tag + "-server.json");
        Path clientJson = scratch.resolve(tag + "-client.json");
        try {
            Files.deleteIfExists(serverJson);
            Files.deleteIfExists(clientJson);
            int port = PortWatch.freeTcpPort();
            try (Child server = start("jrdma perf server", arguments(shape, budget, port, serverJson, false))) {
                while (!PortWatch.isListening(port)) {
                    if (!server.isAlive()) {
                        server.awaitExit(deadline);
                        return Outcome.failed("server " + server.exitReason());
                    }
                    if (System.nanoTime() > deadline) {
                        return Outcome.failed(Outcome.TIMEOUT);
                    }
                    Thread.sleep(LISTEN_POLL_MILLIS);
                }
                try (Child client = start("jrdma perf client", arguments(shape, budget, port, clientJson, true))) {
                    if (!client.awaitExit(deadline) || !server.awaitExit(deadline)) {
                        return Outcome.failed(Outcome.TIMEOUT);
                    }
                    if (client.exitValue() != 0) {
                        return Outcome.failed("client " + client.exitReason());
                    }
                    if (server.exitValue() != 0) {
                        return Outcome.failed("server " + server.exitReason());
                    }
                    PerfResult c = read(clientJson, client);
                    PerfResult sv = read(serverJson, server);
                    setup[0] = setupCpu(c, sv);
                    return outcome(shape, c, sv);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Outcome.failed("interrupted");
        } catch (IOException | RuntimeException e) {
            return Outcome.failed(e.getMessage() == null ? e.toString() : e.getMessage());
        } finally {
            deleteQuietly(serverJson);
            deleteQuietly(clientJson);
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // a scratch file in the temporary directory
        }
    }

    private Child start(String name, List<String> args) throws IOException {
        List<String> cmd = new ArrayList<>(perfCommand);
        cmd.addAll(args);
        return Child.start(name, cmd, UNSET_ENV);
    }

    /** The side's JSON from its file, else from its standard output; null when it has none. */
    private static PerfResult read(Path file, Child side) throws IOException {
        if (Files.isRegularFile(file) && Files.size(file) > 0) {
            return PerfJson.findIn(Files.readString(file));
        }
        try {
            return PerfJson.findIn(String.join("\n", side.stdout()));
        } catch (Json.JsonException none) {
            return null;
        }
    }

    static Outcome outcome(Shape shape, PerfResult client, PerfResult server) {
        PerfResult figures = client != null && client.hasFigure() ? client : server;
        if (figures == null) {
            return Outcome.failed("no --out_json figures from either side");
        }
        double value = figures.figureFor(shape);
        double alloc = Double.NaN;
        for (PerfResult side : new PerfResult[] {client, server}) {
            if (side != null && !Double.isNaN(side.get("allocBytesPerOp"))) {
                alloc = Double.isNaN(alloc) ? side.get("allocBytesPerOp") : Math.max(alloc, side.get("allocBytesPerOp"));
            }
        }
        Outcome.Ok ok = Outcome.ok(value, alloc);
        return shape.kind() == Kind.LATENCY ? ok.withTails(figures.get("p99Us"), figures.get("p999Us")) : ok;
    }
}
