package org.jrdma.cm;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * An agent's counters: MADs received, sent, retransmitted (on a timeout), duplicates seen (and
 * answered or ignored), and MADs dropped, each by its reason ({@code dropped_<reason>}).
 */
final class CmCounters {
    static final String RECEIVED = "received";
    static final String SENT = "sent";
    static final String RETRANSMITTED = "retransmitted";
    static final String DUPLICATES = "duplicates";
    static final String DROPPED = "dropped";

    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

    void add(String name) {
        counts.computeIfAbsent(name, k -> new LongAdder()).increment();
    }

    /** Counts a MAD dropped for {@code reason} (also in the total {@value #DROPPED}). */
    void drop(String reason) {
        add(DROPPED);
        add(DROPPED + "_" + reason);
    }

    long get(String name) {
        LongAdder a = counts.get(name);
        return a == null ? 0 : a.sum();
    }

    Map<String, Long> snapshot() {
        Map<String, Long> m = new TreeMap<>();
        for (String k : new String[] {RECEIVED, SENT, RETRANSMITTED, DUPLICATES, DROPPED}) {
            m.put(k, 0L);
        }
        counts.forEach((k, v) -> m.put(k, v.sum()));
        return m;
    }
}
