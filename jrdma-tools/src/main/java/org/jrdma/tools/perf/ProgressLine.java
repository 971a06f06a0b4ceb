package org.jrdma.tools.perf;

import java.util.Locale;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.jrdma.tools.Progress;

/**
 * perf's status line for {@link Progress}: elapsed seconds, the message size, the operations
 * so far and the rate since the last tick ({@code 12.5 s  #bytes 65536  152000 iterations
 * 1187.50 MiB/sec}). Called from the progress thread only, so its last-tick state is its own.
 */
final class ProgressLine implements Supplier<String> {
    private final Progress.Clock clock;
    private final IntSupplier size;
    private final LongSupplier ops;
    private final boolean gbits;
    private final String unit;
    private long lastOps = -1;
    private long lastNanos;

    ProgressLine(Progress.Clock clock, IntSupplier size, LongSupplier ops, boolean gbits, boolean bandwidth) {
        this.clock = clock;
        this.size = size;
        this.ops = ops;
        this.gbits = gbits;
        this.unit = bandwidth ? (gbits ? "Gb/sec" : "MiB/sec") : "iterations/sec";
    }

    @Override
    public String get() {
        long now = System.nanoTime();
        long n = ops.getAsLong();
        String rate = "";
        if (lastOps >= 0 && now > lastNanos && n >= lastOps) {
            double perSecond = (n - lastOps) / ((now - lastNanos) / 1e9);
            rate = unit.equals("iterations/sec") ? String.format(Locale.ROOT, "  %.0f %s", perSecond, unit)
                    : String.format(Locale.ROOT, "  %.2f %s", perSecond * size.getAsInt() / BwTable.unitBytes(gbits), unit);
        }
        lastOps = n;
        lastNanos = now;
        return String.format(Locale.ROOT, " %.1f s  #bytes %d  %d iterations%s", clock.elapsedSeconds(), size.getAsInt(), n, rate);
    }
}
