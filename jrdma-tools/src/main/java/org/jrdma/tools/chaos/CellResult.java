package org.jrdma.tools.chaos;

import java.util.Map;

/**
 * What one cell did.
 *
 * @param cell the cell
 * @param impairmentA A's impairment with its seed (replay with JRDMA_IMPAIR), or "none"
 * @param impairmentB B's, likewise
 * @param bytes payload bytes moved by SEND, WRITE and READ
 * @param nanos how long the workload took
 * @param verified every byte matched and the atomic counter was exact
 * @param error the first error completion's status, or null
 * @param errorNanos time from the start to that error, or 0
 * @param counters both devices' counters, added up
 */
public record CellResult(ChaosCell cell, String impairmentA, String impairmentB, long bytes, long nanos, boolean verified,
        String error, long errorNanos, Map<String, Long> counters) {
    public double mibPerSecond() {
        return nanos == 0 ? 0 : bytes / (nanos / 1e9) / (1 << 20);
    }

    public long counter(String name) {
        return counters.getOrDefault(name, 0L);
    }

    /** As expected: clean and verified, or — for a cut that never heals — an error, not a hang. */
    public boolean passed() {
        return cell.expectsError() ? error != null : error == null && verified;
    }
}
