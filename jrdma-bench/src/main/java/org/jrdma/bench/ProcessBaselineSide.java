package org.jrdma.bench;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jrdma.bench.baseline.BaselineProcess;
import org.jrdma.bench.baseline.SegmentCopy;

/**
 * Runs a baseline as two processes of this JVM's java and class path, like jrdma perf: the
 * server, which prints a ready line with the port it bound, then the client. The figure comes
 * from the JSON line of the measuring side (the stream's receiver, the ping-pong's client).
 */
public final class ProcessBaselineSide implements BaselineSide {
    private final String java;
    private final String classPath;

    public ProcessBaselineSide(String java, String classPath) {
        this.java = java;
        this.classPath = classPath;
    }

    /** The java running this runner, with its class path (the bench jar, or test classes). */
    public static ProcessBaselineSide ofThisJvm() {
        return new ProcessBaselineSide(thisJava(), thisClassPath());
    }

    /**
     * This JVM's class path and module path as one class path: the bench jar runs from the class
     * path, its tests from the module path; a baseline child needs the runner's classes either way.
     */
    static String thisClassPath() {
        return Stream.of(System.getProperty("java.class.path", ""), System.getProperty("jdk.module.path", ""))
                .filter(s -> !s.isEmpty()).collect(Collectors.joining(File.pathSeparator));
    }

    static String thisJava() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    @Override
    public String description() {
        return "Java NIO (" + java + "), two processes, non-blocking channels busy-polled (the blocking UDP ping-pong: blocking "
                + "channels), direct buffers; beside --provider shm: MemorySegment.copy between two page-aligned off-heap "
                + "segments in one process, and a ping-pong of two processes through a shared memory-mapped file, busy polling";
    }

    /** The arguments both roles share: size and run length. */
    static List<String> runArguments(Baseline baseline, int sizeBytes, Budget budget) {
        if (!baseline.isJava()) {
            throw new IllegalArgumentException(baseline + " is run by the jrdma side");
        }
        List<String> a = new ArrayList<>(List.of("--size", String.valueOf(sizeBytes)));
        a.addAll(baseline.args());
        if (baseline.kind() == Kind.LATENCY) {
            a.addAll(List.of("--iters", String.valueOf(budget.latIters()), "--warmup", String.valueOf(budget.latWarmup())));
        } else if (budget.bwTimed()) {
            a.addAll(List.of("--seconds", String.valueOf(budget.bwSeconds()), "--warmup-seconds", String.valueOf(budget.bwWarmupSeconds())));
        } else {
            int n = budget.bwIters(sizeBytes, baseline == Baseline.SEGMENT_COPY);
            a.addAll(List.of("--count", String.valueOf(n), "--warmup", String.valueOf(Budget.warmupOf(n))));
        }
        return a;
    }

    /**
     * The GiB a streaming run moves, warm-up included: (count + warm-up) × size; a timed run, its
     * figure × (seconds + warm-up seconds). NaN for ping-pongs.
     */
    static double gibMoved(Baseline baseline, int sizeBytes, Budget budget, double mibPerSec) {
        if (baseline.kind() != Kind.BANDWIDTH) {
            return Double.NaN;
        }
        if (budget.bwTimed()) {
            return mibPerSec * (budget.bwSeconds() + budget.bwWarmupSeconds()) / 1024;
        }
        int n = budget.bwIters(sizeBytes, baseline == Baseline.SEGMENT_COPY);
        return (double) (n + Budget.warmupOf(n)) * sizeBytes / (1L << 30);
    }

    @Override
    public Outcome run(Baseline baseline, int sizeBytes, Budget budget) {
        double cpuBefore = ChildCpu.reapedSeconds();
        double[] setup = {Double.NaN};
        Outcome o = runPair(baseline, sizeBytes, budget, setup);
        if (o instanceof Outcome.Ok ok) {
            // both children have exited and been reaped: their CPU is in ours
            double cpu = ChildCpu.traffic(cpuBefore, ChildCpu.reapedSeconds(), setup[0]);
            return ok.withCpu(cpu, gibMoved(baseline, sizeBytes, budget, ok.value()));
        }
        return o;
    }

    private Outcome runPair(Baseline baseline, int sizeBytes, Budget budget, double[] setup) {
        long deadline = System.nanoTime() + budget.timeout(baseline.kind(), sizeBytes).toNanos();
        List<String> common = runArguments(baseline, sizeBytes, budget);
        if (baseline.singleProcess()) {
            return runSingle(baseline, common, deadline, setup);
        }
        try (Child server = start(baseline, "server", common)) {
            Optional<String> ready = server.awaitLine(l -> l.startsWith("{\"ready\""), deadline);
            if (ready.isEmpty()) {
                return server.isAlive() ? Outcome.failed(Outcome.TIMEOUT) : exited(server);
            }
            List<String> clientArgs = new ArrayList<>(peerArguments(ready.get()));
            clientArgs.addAll(common);
            try (Child client = start(baseline, "client", clientArgs)) {
                if (!client.awaitExit(deadline) || !server.awaitExit(deadline)) {
                    return Outcome.failed(Outcome.TIMEOUT);
                }
                if (client.exitValue() != 0) {
                    return Outcome.failed("client " + client.exitReason());
                }
                if (server.exitValue() != 0) {
                    return Outcome.failed("server " + server.exitReason());
                }
                setup[0] = setupCpu(ready.get(), startedLine(client));
                Child measuring = baseline.figureFromServer() ? server : client;
                return figure(baseline, lastJsonLine(measuring));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Outcome.failed("interrupted");
        } catch (IOException | RuntimeException e) {
            return Outcome.failed(e.getMessage() == null ? e.toString() : e.getMessage());
        }
    }

    /**
     * How the client finds the server, from its ready line: {@code --file F} when it names a
     * file to map (the mapped ping-pong), else {@code --port P}.
     */
    static List<String> peerArguments(String readyLine) {
        Map<String, Object> ready = Json.parseObject(readyLine);
        if (ready.get(BaselineProcess.FILE_KEY) instanceof String file) {
            return List.of("--" + BaselineProcess.FILE_KEY, file);
        }
        if (!(ready.get("port") instanceof Double port)) {
            throw new Json.JsonException("a ready line with neither a port nor a file: " + readyLine);
        }
        return List.of("--port", String.valueOf(port.intValue()));
    }

    /** A single-process baseline: its started line's CPU is the set-up, its last JSON line the figure. */
    private Outcome runSingle(Baseline baseline, List<String> args, long deadline, double[] setup) {
        try (Child local = start(baseline, SegmentCopy.ROLE, args)) {
            if (!local.awaitExit(deadline)) {
                return Outcome.failed(Outcome.TIMEOUT);
            }
            if (local.exitValue() != 0) {
                return Outcome.failed(SegmentCopy.ROLE + " " + local.exitReason());
            }
            String started = startedLine(local);
            setup[0] = started == null ? Double.NaN : number(Json.parseObject(started), "cpuSeconds");
            return figure(baseline, lastJsonLine(local));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Outcome.failed("interrupted");
        } catch (IOException | RuntimeException e) {
            return Outcome.failed(e.getMessage() == null ? e.toString() : e.getMessage());
        }
    }

    /** The figure of a baseline's result line, or why it has none. */
    static Outcome figure(Baseline baseline, Map<String, Object> line) {
        Object figure = line.get(baseline.figureKey());
        if (!(figure instanceof Double value)) {
            return Outcome.failed("no " + baseline.figureKey() + " in " + line);
        }
        return outcome(value, line);
    }

    /** The figure, with the allocation and (ping-pongs) the tail percentiles of the line. */
    static Outcome.Ok outcome(double value, Map<String, Object> line) {
        return Outcome.ok(value, number(line, "allocBytesPerOp")).withTails(number(line, "halfRttP99Us"), number(line, "halfRttP999Us"));
    }

    private static double number(Map<String, Object> line, String key) {
        return line.get(key) instanceof Double d ? d : Double.NaN;
    }

    private static Outcome exited(Child server) throws InterruptedException {
        server.awaitExit(System.nanoTime() + 5_000_000_000L);
        return Outcome.failed("server " + server.exitReason());
    }

    private Child start(Baseline baseline, String role, List<String> args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(java, "-cp", classPath, baseline.mainClass().getName(), role));
        cmd.addAll(args);
        return Child.start(baseline.label() + " " + role, cmd, ProcessRdmaSide.UNSET_ENV);
    }

    /**
     * The CPU the two had used when their traffic was about to start: the server's on its ready
     * line (bound), the client's on its started line (connected); NaN unless both said.
     */
    static double setupCpu(String serverReady, String clientStarted) {
        if (serverReady == null || clientStarted == null) {
            return Double.NaN;
        }
        return number(Json.parseObject(serverReady), "cpuSeconds") + number(Json.parseObject(clientStarted), "cpuSeconds");
    }

    private static String startedLine(Child c) {
        return c.stdout().stream().filter(l -> l.startsWith("{\"" + BaselineProcess.STARTED_KEY + "\"")).findFirst().orElse(null);
    }

    private static Map<String, Object> lastJsonLine(Child c) {
        List<String> lines = c.stdout();
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (lines.get(i).startsWith("{") && !lines.get(i).startsWith("{\"ready\"")
                    && !lines.get(i).startsWith("{\"" + BaselineProcess.STARTED_KEY + "\"")) {
                return Json.parseObject(lines.get(i));
            }
        }
        throw new Json.JsonException(c.name() + " printed no result line");
    }
}
