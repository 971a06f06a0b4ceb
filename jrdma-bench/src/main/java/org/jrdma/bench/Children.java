package org.jrdma.bench;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every child the runner started and has not closed. A shutdown hook kills them, so ^C or an
 * error in the runner never leaves a busy-polling process behind.
 */
final class Children {
    private static final Set<Child> LIVE = ConcurrentHashMap.newKeySet();
    private static boolean exiting;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(Children::killAll, "bench-children-cleanup"));
    }

    private Children() {
    }

    /** False once the runner is exiting: the caller must kill the child it just started. */
    static synchronized boolean register(Child c) {
        if (exiting) {
            return false;
        }
        LIVE.add(c);
        return true;
    }

    static void unregister(Child c) {
        LIVE.remove(c);
    }

    static int live() {
        return LIVE.size();
    }

    static void killAll() {
        synchronized (Children.class) {
            exiting = true; // no child starts after this one
        }
        for (Child c : LIVE) {
            c.kill();
        }
        LIVE.clear();
    }
}
