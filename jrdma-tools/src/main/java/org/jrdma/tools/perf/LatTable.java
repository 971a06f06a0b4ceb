package org.jrdma.tools.perf;

/**
 * The latency table (ROCEV2-FACTS §6.4): RESULT_FMT_LAT with REPORT_FMT_LAT rows
 * ({@code " %-7lu %lu          %-7.2f        %-7.2f      %-7.2f  \t       %-7.2f     \t%-7.2f\t\t%-7.2f \t\t%-7.2f"}),
 * and the {@code -D} variant. Numbers are rounded as C does ({@link CFormat#fixed}).
 */
final class LatTable {
    private LatTable() {
    }

    static String header() {
        return " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]"
                + "   99% percentile[usec]   99.9% percentile[usec] ";
    }

    static String row(LatencyStats s) {
        return " " + CFormat.left(Integer.toString(s.size()), 7) + " " + s.iters() + "          "
                + CFormat.fixedLeft(s.minUsec(), 7, 2) + "        " + CFormat.fixedLeft(s.maxUsec(), 7, 2) + "      "
                + CFormat.fixedLeft(s.typicalUsec(), 7, 2) + "  \t       " + CFormat.fixedLeft(s.avgUsec(), 7, 2) + "     \t"
                + CFormat.fixedLeft(s.stdevUsec(), 7, 2) + "\t\t" + CFormat.fixedLeft(s.p99Usec(), 7, 2) + " \t\t"
                + CFormat.fixedLeft(s.p999Usec(), 7, 2);
    }

    /** RESULT_FMT_LAT_DUR (with -D). */
    static String durationHeader() {
        return " #bytes        #iterations       t_avg[usec]    tps average";
    }

    /** {@code " %-7lu       %lu            %-7.2f        %-7.2f"}: jrdma's row for the -D header above. */
    static String durationRow(LatencyStats s) {
        return " " + CFormat.left(Integer.toString(s.size()), 7) + "       " + s.iters() + "            "
                + CFormat.fixedLeft(s.avgUsec(), 7, 2) + "        " + CFormat.fixedLeft(s.tps(), 7, 2);
    }
}
