package org.jrdma.tools.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** Runs chaos cells one after another, each with its own seed derived from the run's. */
public final class FaultMatrix {
    private FaultMatrix() {
    }

    public static List<CellResult> run(ChaosConfig config, List<ChaosCell> cells, Consumer<CellResult> onCell) {
        // A first, unreported run of the baseline: a cold JIT makes the first cell slow enough
        // for spurious timeouts, which would understate the baseline every other cell is
        // compared with.
        try (ChaosRun warmUp = new ChaosRun(ChaosCell.standard().getFirst(), config, config.seed(), LoopbackAddresses.free(),
                LoopbackAddresses.free())) {
            warmUp.run();
        }
        List<CellResult> results = new ArrayList<>();
        for (int i = 0; i < cells.size(); i++) {
            long seed = config.seed() + 0x9E3779B97F4A7C15L * (i + 1);
            try (ChaosRun run = new ChaosRun(cells.get(i), config, seed, LoopbackAddresses.free(), LoopbackAddresses.free())) {
                CellResult r = run.run();
                results.add(r);
                onCell.accept(r);
            }
        }
        return results;
    }
}
