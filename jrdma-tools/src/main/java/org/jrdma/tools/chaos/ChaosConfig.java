package org.jrdma.tools.chaos;

import org.jrdma.verbs.Mtu;

/**
 * How big a chaos run is.
 *
 * @param messages operations of each kind per cell (SEND, WRITE, READ; atomics are 4×)
 * @param size bytes per SEND/WRITE/READ
 * @param window operations outstanding at once
 * @param timeout the QPs' local ACK timeout attribute (4.096 µs × 2^timeout)
 * @param retryCnt the QPs' retry_cnt
 * @param mtu path MTU
 * @param seed the impairment seed of the first cell (each cell derives its own from it)
 */
public record ChaosConfig(int messages, int size, int window, int timeout, int retryCnt, Mtu mtu, long seed) {
    public ChaosConfig {
        if (window < 1 || messages < window) {
            throw new IllegalArgumentException("chaos: need messages ≥ window ≥ 1, not " + messages + " and " + window);
        }
        if (size < 8 || size % 8 != 0) {
            throw new IllegalArgumentException("chaos: size must be a positive multiple of 8, not " + size);
        }
        if (timeout < 0 || timeout > 31) {
            // the QP attribute is 5 bits (IBA 9.7.6.1.3); found only at modify_qp, after the table began
            throw new IllegalArgumentException("chaos: --timeout must be 0..31 (4.096 µs × 2^t), not " + timeout);
        }
    }

    /**
     * The local ACK timeout chaos runs use: 4.096 µs × 2^12 ≈ 16.8 ms, so retry_cnt 7 gives up
     * only after ≥ 134 ms without an answer. Shorter (2^10 ≈ 4.2 ms, 34 ms in all) fails on a
     * loaded two-core machine with no loss at all: an application thread preempted while it
     * drives the peer's engine silences the peer that long, and RETRY_EXC_ERR is then the
     * right answer of RC — but not the one the matrix is about.
     */
    public static final int TIMEOUT = 12;

    /** A few seconds per cell: what CI runs. */
    public static ChaosConfig ciSized(long seed) {
        return new ChaosConfig(100, 4096, 16, TIMEOUT, 7, Mtu.MTU_1024, seed);
    }
}
