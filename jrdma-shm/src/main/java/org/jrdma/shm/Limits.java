package org.jrdma.shm;

/** What the shm device grants (ibv_query_device's limits). */
final class Limits {
    private Limits() {
    }

    static final int MAX_QP_WR = 16384;
    static final int MAX_SGE = 32;
    static final int MAX_CQE = 1 << 20;
    static final int MAX_INLINE = 4096;
    static final int MAX_RD_ATOMIC = 128;
    static final long MAX_MSG = 1L << 31;
    static final long MAX_MR_SIZE = 1L << 40;
    static final int MAX_PD = 1 << 16;
    static final int MAX_SRQ_WR = 16384;
}
