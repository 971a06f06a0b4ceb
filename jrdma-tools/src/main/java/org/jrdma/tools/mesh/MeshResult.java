package org.jrdma.tools.mesh;

import java.util.Map;
import org.jrdma.bootstrap.rendezvous.StoreTraffic;

/**
 * What one rank's run of {@code jrdma mesh} found.
 *
 * @param store the store's address
 * @param epoch the run of the job the rank took part in
 * @param deviceName the device its QPs were on
 * @param phases phase name to its duration in nanoseconds, in the order they ran
 * @param traffic what the rank asked of the store
 * @param row for each writer rank, whether its WRITE into this rank was there byte for byte
 *     (this rank's own entry is true)
 * @param matrix rank 0 only (else null): every rank's row, by rank
 */
record MeshResult(String store, long epoch, String deviceName, Map<String, Long> phases, StoreTraffic traffic,
        boolean[] row, boolean[][] matrix) {
    /** This rank's verdict: its own row on every rank, the whole matrix on rank 0. */
    boolean verified() {
        boolean[][] rows = matrix == null ? new boolean[][] {row} : matrix;
        for (boolean[] r : rows) {
            for (boolean ok : r) {
                if (!ok) {
                    return false;
                }
            }
        }
        return true;
    }
}
