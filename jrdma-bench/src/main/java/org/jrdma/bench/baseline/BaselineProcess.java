package org.jrdma.bench.baseline;

/**
 * What every baseline process shares with the runner: a ready line once its socket is bound
 * (so the client starts only then, with the port the server really got), the client's started
 * line once it is connected, one JSON line with
 * its figures at the end, and exit status 1 with a one-line error on stderr when it fails.
 */
public final class BaselineProcess {
    /** The key of the ready line; the runner waits for it before starting the client. */
    static final String READY_KEY = "ready";
    /**
     * The key of the line a client prints once connected, right before its first (warm-up)
     * message: the runner reads both processes' CPU then, to leave their start-up out.
     */
    public static final String STARTED_KEY = "started";
    /** The key of a ready line's file, for a client that maps it instead of connecting to a port. */
    public static final String FILE_KEY = "file";

    private BaselineProcess() {
    }

    interface Body {
        void run() throws Exception;
    }

    static void run(String name, String[] args, Body body) {
        try {
            body.run();
        } catch (Exception e) {
            System.err.println(name + " " + (args.length > 0 ? args[0] : "") + ": error: " + e);
            System.exit(1);
        }
        System.exit(0);
    }

    /** The ready line, with the CPU this process has used so far (its start-up). */
    static void ready(int port) {
        System.out.println(new JsonLine().put(READY_KEY, true).put("port", port).put("cpuSeconds", cpuSeconds()));
        System.out.flush();
    }

    /**
     * The ready line of a server that a client finds by a file rather than a port (the mapped
     * ping-pong): the runner gives the client {@code --file} with it.
     */
    static void readyFile(String file) {
        System.out.println(new JsonLine().put(READY_KEY, true).put(FILE_KEY, file).put("cpuSeconds", cpuSeconds()));
        System.out.flush();
    }

    /** The started line, with the CPU this process has used so far (its start-up and connecting). */
    static void started() {
        System.out.println(new JsonLine().put(STARTED_KEY, true).put("cpuSeconds", cpuSeconds()));
        System.out.flush();
    }

    /** This process's CPU time (every thread, user + system) in seconds; NaN where the JVM cannot tell. */
    static double cpuSeconds() {
        if (java.lang.management.ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            long nanos = os.getProcessCpuTime();
            return nanos < 0 ? Double.NaN : nanos / 1e9;
        }
        return Double.NaN;
    }

    static void result(JsonLine line) {
        System.out.println(line);
        System.out.flush();
    }
}
