package org.jrdma.tools.mesh;

import java.util.Locale;
import java.util.Map;
import org.jrdma.tools.json.Json;

/** How {@code jrdma mesh} prints a rank's result: lines for people, or one JSON object. */
final class MeshReport {
    private MeshReport() {
    }

    static String text(MeshConfig c, MeshResult r) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "rank %d of %d, job %s, epoch %d, store %s, device %s%n", c.rank(), c.size(),
                c.spec().job(), r.epoch(), r.store(), r.deviceName()));
        for (Map.Entry<String, Long> p : r.phases().entrySet()) {
            sb.append(String.format(Locale.ROOT, "  %-9s %10.3f ms%n", p.getKey(), p.getValue() / 1e6));
        }
        sb.append(String.format(Locale.ROOT, "  store     %d requests, %d bytes sent, %d bytes received%n",
                r.traffic().requests(), r.traffic().bytesSent(), r.traffic().bytesReceived()));
        int ok = count(r.row());
        sb.append(String.format(Locale.ROOT, "  verified  %d of %d peers' WRITEs of %d bytes into this rank%n",
                ok - 1, c.size() - 1, c.slot()));
        if (r.matrix() != null) {
            sb.append(matrix(c, r));
        } else {
            sb.append("mesh: ").append(r.verified() ? "ok" : "FAILED").append(" (rank 0 prints the matrix)");
        }
        return sb.toString();
    }

    static String json(MeshConfig c, MeshResult r) {
        Json j = new Json().begin().field("job", c.spec().job()).field("rank", c.rank()).field("size", c.size())
                .field("epoch", r.epoch()).field("store", r.store()).field("device", r.deviceName())
                .field("slot_bytes", c.slot());
        j.key("phases_ms").begin();
        r.phases().forEach((k, v) -> j.field(k, v / 1e6));
        j.end();
        j.key("store_traffic").begin().field("requests", r.traffic().requests()).field("bytes_sent", r.traffic().bytesSent())
                .field("bytes_received", r.traffic().bytesReceived()).end();
        j.field("peers_verified", count(r.row()) - 1);
        if (r.matrix() != null) {
            // one string per writer; character j is '+' when rank j found that writer's WRITE intact
            j.beginArray("matrix");
            for (int from = 0; from < c.size(); from++) {
                j.element(row(r.matrix(), from));
            }
            j.endArray();
        }
        return j.field("verified", r.verified()).end().toString();
    }

    /** Rank 0's matrix and its verdict line: what text() ends with, and LocalRanks prints for rank 0. */
    static String matrix(MeshConfig c, MeshResult r) {
        StringBuilder sb = new StringBuilder("matrix (row: the writer, column: the rank that checked its WRITE; + verified, X failed):\n");
        for (int from = 0; from < c.size(); from++) {
            sb.append(String.format(Locale.ROOT, "  %5d  ", from)).append(row(r.matrix(), from)).append('\n');
        }
        int pairs = c.size() * (c.size() - 1);
        return sb.append(String.format(Locale.ROOT, "mesh: %s: %d of %d ordered pairs verified", r.verified() ? "ok" : "FAILED",
                verifiedPairs(r.matrix()), pairs)).toString();
    }

    /** One writer's row: character j is '+' when rank j found its WRITE intact, '-' for itself. */
    private static String row(boolean[][] matrix, int from) {
        StringBuilder row = new StringBuilder(matrix.length);
        for (int to = 0; to < matrix.length; to++) {
            row.append(from == to ? '-' : matrix[to][from] ? '+' : 'X');
        }
        return row.toString();
    }

    private static int count(boolean[] row) {
        int n = 0;
        for (boolean b : row) {
            n += b ? 1 : 0;
        }
        return n;
    }

    private static int verifiedPairs(boolean[][] matrix) {
        int n = 0;
        for (int to = 0; to < matrix.length; to++) {
            for (int from = 0; from < matrix.length; from++) {
                n += from != to && matrix[to][from] ? 1 : 0;
            }
        }
        return n;
    }
}
