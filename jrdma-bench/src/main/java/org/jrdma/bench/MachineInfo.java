package org.jrdma.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/** What the reader of a table needs to know about the machine and the moment. */
public record MachineInfo(Instant time, int cores, String cpu, String os, String jdk, String loadAverage) {
    public static MachineInfo now() {
        return new MachineInfo(Instant.now().truncatedTo(ChronoUnit.SECONDS), Runtime.getRuntime().availableProcessors(), readCpu(),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                Runtime.version() + " (" + System.getProperty("java.vendor") + ")", readLoadAverage());
    }

    /** The 1, 5 and 15 minute load averages (/proc/loadavg), or the 1-minute one the JVM knows. */
    static String readLoadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).strip().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            double one = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
            return one < 0 ? "unknown" : String.format(Locale.ROOT, "%.2f", one);
        }
    }

    private static String readCpu() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).strip()).findFirst().orElse("unknown CPU");
        } catch (IOException | RuntimeException e) {
            return "unknown CPU";
        }
    }
}
