package org.jrdma.tools.perf;

import java.nio.ByteBuffer;
import org.jrdma.bootstrap.MalformedMessageException;

/**
 * One side's bandwidth result as {@code xchg_bw_reports} swaps it (ROCEV2-FACTS §6.3 step 11):
 * five exchanges, each value big-endian — size (u64), iterations (u64 since perftest 5.33),
 * then three IEEE doubles byte-swapped to big-endian: peak and average bandwidth in the report
 * unit (MiB/s or Gb/s) and the message rate in Mpps.
 *
 * <p>A perftest server sends a report it never filled in (a stack struct), so a received report
 * is only checked, with {@link #validated}, by the side that prints it.
 */
record BwReport(long size, long iters, double bwPeak, double bwAvg, double msgRateMpps) {
    static final BwReport EMPTY = new BwReport(0, 0, 0, 0, 0);

    static byte[] u64(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    static byte[] f64(double v) {
        return ByteBuffer.allocate(8).putDouble(v).array();
    }

    static long u64(byte[] b) {
        return ByteBuffer.wrap(b).getLong();
    }

    static double f64(byte[] b) {
        return ByteBuffer.wrap(b).getDouble();
    }

    /** This report if every value is one a measuring peer could send; else names the field. */
    BwReport validated() {
        if (size < 0 || size > Integer.MAX_VALUE) {
            throw new MalformedMessageException("report size", Long.toUnsignedString(size) + " is not a message size");
        }
        if (iters < 0) {
            throw new MalformedMessageException("report iters", Long.toUnsignedString(iters) + " is not an iteration count");
        }
        checkRate("report bw_peak", bwPeak);
        checkRate("report bw_avg", bwAvg);
        checkRate("report msgRate", msgRateMpps);
        return this;
    }

    private static void checkRate(String field, double v) {
        if (!Double.isFinite(v) || v < 0) {
            throw new MalformedMessageException(field, v + " is not a non-negative finite rate");
        }
    }

    /** The bidirectional total perftest prints: both sides' figures added (print_full_bw_report). */
    BwReport plus(BwReport other) {
        return new BwReport(size, iters, bwPeak + other.bwPeak, bwAvg + other.bwAvg, msgRateMpps + other.msgRateMpps);
    }
}
