package org.jrdma.tools.perf;

/**
 * The bandwidth table (ROCEV2-FACTS §6.4): RESULT_FMT / RESULT_FMT_G and REPORT_FMT rows
 * ({@code " %-7lu    %-10lu       %-7.2lf            %-7.2lf\t\t   %-7.6lf"}). The row's tail is
 * two tabs and three spaces as in perftest_parameters.h (§6.4 shows five spaces; the perftest
 * sources and captured ib_write_bw output both have three). Numbers are rounded as C does
 * ({@link CFormat#fixed}).
 */
final class BwTable {
    private BwTable() {
    }

    static String header(boolean gbits) {
        String unit = gbits ? "Gb/sec" : "MiB/sec";
        return " #bytes     #iterations    BW peak[" + unit + "]    BW average[" + unit + "]   MsgRate[Mpps]";
    }

    /** REPORT_FMT; REPORT_FMT_EXT (six decimals) when a Gb/s average is below 0.1, as perftest's inc_accuracy. */
    static String row(BwReport r, boolean gbits) {
        if (gbits && r.bwAvg() < 0.1) {
            return " " + CFormat.left(Long.toString(r.size()), 7) + "    " + r.iters() + "           "
                    + CFormat.fixedLeft(r.bwPeak(), 7, 6) + "            " + CFormat.fixedLeft(r.bwAvg(), 7, 6)
                    + "            " + CFormat.fixedLeft(r.msgRateMpps(), 7, 6);
        }
        return " " + CFormat.left(Long.toString(r.size()), 7) + "    " + CFormat.left(Long.toString(r.iters()), 10)
                + "       " + CFormat.fixedLeft(r.bwPeak(), 7, 2) + "            " + CFormat.fixedLeft(r.bwAvg(), 7, 2)
                + "\t\t   " + CFormat.fixedLeft(r.msgRateMpps(), 7, 6);
    }

    /** perftest's format factor: MiB = 2^20 bytes, or Gb = 125 000 000 bytes. */
    static double unitBytes(boolean gbits) {
        return gbits ? 125_000_000.0 : 0x100000;
    }
}
