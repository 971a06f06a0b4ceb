package org.jrdma.soft.transport;

/** The RNR NAK timer codes of IBA table 45 (ROCEV2-FACTS §2.3): 5-bit code → delay. */
public final class RnrTimer {
    /** Microseconds per code; code 0 is the longest, 655.36 ms. */
    private static final int[] MICROS = {
        655_360, 10, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960, 1_280, 1_920,
        2_560, 3_840, 5_120, 7_680, 10_240, 15_360, 20_480, 30_720, 40_960, 61_440, 81_920, 122_880,
        163_840, 245_760, 327_680, 491_520,
    };

    private RnrTimer() {
    }

    public static long nanos(int code) {
        return MICROS[code & 0x1F] * 1_000L;
    }
}
