package org.jrdma.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time (user + system) of this runner's children that have ended and been waited for: the
 * kernel adds a child's whole CPU time to its parent's {@code cutime} and {@code cstime}
 * ({@code /proc/self/stat}, fields 16 and 17, in clock ticks) when the parent reaps it, which the
 * JDK does as soon as the child exits. Read before a run's two processes start and after both
 * have exited, the difference is what the pair used, server and client, from JVM start to exit
 * (start-up and warm-up included), to the clock tick (10 ms). The runner runs one pair at a time,
 * so nothing else lands in between. To leave out JVM start-up and connection set-up, each child
 * says what CPU it had used when its traffic was about to start (jrdma perf's JSON
 * {@code setupCpuSeconds}; a baseline's ready or started line, {@code cpuSeconds}), and the
 * runner subtracts the two: see {@link #traffic}. NaN where there is no {@code /proc} (not Linux).
 */
final class ChildCpu {
    /** USER_HZ: the unit of /proc's times, 100 on every Linux architecture the JDK runs on. */
    static final int USER_HZ = 100;
    private static final Path STAT = Path.of("/proc/self/stat");

    private ChildCpu() {
    }

    /** Reaped children's CPU seconds so far, NaN when unknown. */
    static double reapedSeconds() {
        try {
            return parseReapedSeconds(Files.readString(STAT));
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /**
     * The pair's CPU from the start of its traffic to its exit: all it used (the reaped
     * children's CPU after, less before) less what the two had used when their traffic was about
     * to start. NaN when that is unknown.
     */
    static double traffic(double reapedBefore, double reapedAfter, double atTrafficStart) {
        return reapedAfter - reapedBefore - atTrafficStart;
    }

    /**
     * cutime + cstime of a {@code /proc/PID/stat} line, in seconds. The command name (field 2)
     * is in parentheses and may hold spaces: fields are counted from the last ')'.
     */
    static double parseReapedSeconds(String stat) {
        String[] f = fields(stat);
        long cutime = Long.parseLong(f[16 - 3]);
        long cstime = Long.parseLong(f[17 - 3]);
        return (double) (cutime + cstime) / USER_HZ;
    }

    /** The fields after the command name: f[0] is field 3 (state), field k is f[k - 3]. */
    private static String[] fields(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            throw new IllegalArgumentException("not a /proc stat line: " + stat);
        }
        String[] f = stat.substring(close + 1).strip().split("\\s+");
        if (f.length < 15) {
            throw new IllegalArgumentException("a /proc stat line of " + (f.length + 2) + " fields: " + stat);
        }
        return f;
    }
}
