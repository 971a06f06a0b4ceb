package org.jrdma.tools.chaos;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import org.jrdma.bootstrap.MalformedMessageException;
import org.jrdma.bootstrap.Mtus;
import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.Progress;
import org.jrdma.verbs.ProviderChoice;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jrdma chaos}: the fault matrix (RELIABILITY-SECURITY §6.9) on two soft devices of
 * this host — SEND, WRITE, READ and atomics through loss, bursts, reordering, duplication,
 * corruption, delay and partitions, verified byte for byte; prints one table row per cell
 * with the seeds to replay it.
 */
@Command(name = "chaos", mixinStandardHelpOptions = true, description = {
        "Run SEND, RDMA WRITE, RDMA READ and atomics through the chaos matrix (loss, burst loss, reordering,",
        "duplication, corruption, delay, partitions) between two soft devices, verifying every byte."})
public final class ChaosCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = {"-n", "--iters"}, defaultValue = "2000", description = "Operations of each kind per cell (default: ${DEFAULT-VALUE}).")
    int messages;

    @Option(names = {"-s", "--size"}, defaultValue = "16384", description = "Bytes per SEND/WRITE/READ (default: ${DEFAULT-VALUE}).")
    int size;

    @Option(names = {"-w", "--window"}, defaultValue = "16", description = "Operations outstanding (default: ${DEFAULT-VALUE}).")
    int window;

    @Option(names = {"-m", "--mtu"}, defaultValue = "1024", description = "Path MTU (default: ${DEFAULT-VALUE}).")
    int mtu;

    @Option(names = "--timeout", defaultValue = "" + ChaosConfig.TIMEOUT, description = "QP local ACK timeout attribute, 4.096 µs × 2^t (default: ${DEFAULT-VALUE}).")
    int timeout;

    @Option(names = "--seed", description = "Impairment seed (default: random, printed).")
    Long seed;

    @Option(names = "--cell", paramLabel = "CH-xx", description = "Only these cells (the baseline always runs).")
    List<String> only;

    @Option(names = {"-v", "--verbose"}, description = "Also print every counter of every cell.")
    boolean verbose;

    @Override
    public Integer call() {
        ProviderChoice provider = ProviderChoice.fromEnvironment();
        if (provider.mode() == ProviderChoice.Mode.NATIVE) {
            // impairing what a device sends is the soft provider's; a NIC cannot be told to lose packets
            throw usage(provider.setting() + ": chaos impairs the packets of two soft devices it makes itself,"
                    + " so it runs on the soft provider only; use --provider soft (or auto)");
        }
        long s = seed != null ? seed : new java.security.SecureRandom().nextLong();
        ChaosConfig config;
        try {
            config = new ChaosConfig(messages, size, window, timeout, 7, Mtus.of(mtu), s);
        } catch (MalformedMessageException e) {
            throw usage("--mtu " + e.problem()); // a flag is a usage error (exit 2), as pingpong's -m
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        List<String> ids = ChaosCell.standard().stream().map(ChaosCell::id).toList();
        if (only != null && !ids.containsAll(only)) {
            // an unknown id ran the baseline alone and said "every cell as expected"
            throw usage("--cell " + only.stream().filter(c -> !ids.contains(c)).toList() + ": no such cell; the cells are "
                    + String.join(", ", ids));
        }
        List<ChaosCell> cells = ChaosCell.standard().stream()
                .filter(c -> only == null || c.id().equals("CH-00") || only.contains(c.id())).toList();
        PrintWriter out = spec.commandLine().getOut();
        out.printf("jrdma chaos: %d ops of each kind × %d B, window %d, MTU %d, timeout %d, retry_cnt 7, seed %d%n%n",
                messages, size, window, mtu, timeout, s);
        out.println(ChaosTable.header());
        AtomicReference<CellResult> baseline = new AtomicReference<>();
        java.util.concurrent.atomic.AtomicInteger done = new java.util.concurrent.atomic.AtomicInteger();
        // one line in place on a terminal while the cells run, nothing when piped
        List<CellResult> results;
        try (Progress progress = Progress.start(out, clock -> () -> String.format(
                java.util.Locale.ROOT, " %.1f s  cell %d of %d running", clock.elapsedSeconds(), done.get() + 1, cells.size()))) {
            results = FaultMatrix.run(config, cells, r -> progress.print(() -> {
                done.incrementAndGet();
                baseline.compareAndSet(null, r);
                out.println(ChaosTable.row(r, baseline.get()));
                if (verbose) {
                    out.println("    " + r.counters());
                }
            }));
        }
        out.println();
        for (CellResult r : results) {
            if (!r.impairmentA().equals("none") || !r.impairmentB().equals("none")) {
                out.printf("%s %s: A %s | B %s%n", r.cell().id(), r.cell().name(), r.impairmentA(), r.impairmentB());
            }
        }
        boolean all = results.stream().allMatch(CellResult::passed);
        out.println(all ? "every cell as expected" : "SOME CELLS FAILED");
        return ExitCodes.of(all);
    }

    private CommandLine.ParameterException usage(String message) {
        return ExitCodes.usage(spec, message);
    }
}
