package org.jrdma.bench.baseline;

/**
 * What every baseline process shares with the runner: a ready line once its socket is bound
 * (so the client starts only then, with the port the server really got), one JSON line with
 * its figures at the end, and exit status 1 with a one-line error on stderr when it fails.
 */
final class BaselineProcess {
    /** The key of the ready line; the runner waits for it before starting the client. */
    static final String READY_KEY = "ready";

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

    static void ready(int port) {
        System.out.println(new JsonLine().put(READY_KEY, true).put("port", port));
        System.out.flush();
    }

    static void result(JsonLine line) {
        System.out.println(line);
        System.out.flush();
    }
}
