package org.jrdma.shm;

/**
 * The layout of a node's control memory: the one shared mapping (a memfd) through which other
 * processes see this process's verbs objects. Every offset is from the start of the mapping;
 * integers are in the host's byte order (both sides are on the same host).
 *
 * <pre>
 * [0]      header: magic, version, pid, start time, cookie, closed, attention word
 * [4096]   MR table    MR_SLOTS  × 64 B   key, PD, access, where the memory is
 * [...]    QP table    QP_SLOTS  × 128 B  QPN, state, PD, access flags, receive queue, CQ
 * [...]    CQ table    CQ_SLOTS  × 64 B   ring, arm state, channel, event count
 * [...]    SRQ table   SRQ_SLOTS × 64 B   ring, PD, limit
 * [...]    channel table CHANNEL_SLOTS × 64 B  the futex word waiters sleep on
 * [HEAP]   rings (receive queues, SRQs, CQs), carved by the owner
 * </pre>
 *
 * Only the owner writes the tables' identity fields; peers write what RC lets a remote
 * requester change: ring entries, a QP's state when a request it sent breaks the QP
 * (with the reason), a CQ's arm state and event count, an SRQ's limit flag, and the attention
 * word that wakes the owner's progress thread.
 */
final class Layout {
    private Layout() {
    }

    /** "JRDMASH1". */
    static final long MAGIC = 0x3148534d4452524aL;
    static final int VERSION = 1;

    static final long H_MAGIC = 0;
    static final long H_VERSION = 8;
    static final long H_PID = 12;
    static final long H_START = 16;
    static final long H_COOKIE = 24;
    static final long H_CLOSED = 28;
    static final long H_SIZE = 32;
    /** Bumped (and futex-woken) by a peer that left the owner something to do. */
    static final long H_ATTENTION = 64;

    static final int MR_SLOTS = 4096;
    static final int QP_SLOTS = 1024;
    static final int CQ_SLOTS = 1024;
    static final int SRQ_SLOTS = 256;
    static final int CHANNEL_SLOTS = 256;

    static final long MR_TABLE = 4096;
    static final long MR_BYTES = 64;
    static final long QP_TABLE = MR_TABLE + MR_SLOTS * MR_BYTES;
    static final long QP_BYTES = 128;
    static final long CQ_TABLE = QP_TABLE + QP_SLOTS * QP_BYTES;
    static final long CQ_BYTES = 64;
    static final long SRQ_TABLE = CQ_TABLE + CQ_SLOTS * CQ_BYTES;
    static final long SRQ_BYTES = 64;
    static final long CHANNEL_TABLE = SRQ_TABLE + SRQ_SLOTS * SRQ_BYTES;
    static final long CHANNEL_BYTES = 64;
    static final long HEAP = CHANNEL_TABLE + CHANNEL_SLOTS * CHANNEL_BYTES;
    /** The control mapping's size: sparse, so only the pages rings touch take memory. */
    static final long CONTROL_BYTES = 256L << 20;

    // MR slot: a seqlock guards the fields (odd while the owner changes them).
    static final long MR_SEQ = 0;
    static final long MR_KEY = 4;
    static final long MR_PD = 8;
    static final long MR_ACCESS = 12;
    static final long MR_KIND = 16;
    static final long MR_FD = 20;
    static final long MR_ALLOC = 24;
    static final long MR_FD_OFFSET = 32;
    static final long MR_ADDR = 40;
    static final long MR_LENGTH = 48;
    static final long MR_FD_SIZE = 56;
    /** The memory is a slice of a memfd the provider allocated: a peer maps it. */
    static final int KIND_MEMFD = 1;
    /** Any other memory: reachable in this process, elsewhere by cross-memory attach. */
    static final int KIND_ADDRESS = 2;

    // QP slot.
    static final long QP_QPN = 0;
    static final long QP_STATE = 4;
    static final long QP_PD = 8;
    static final long QP_ACCESS = 12;
    static final long QP_RECV_CQ = 16;
    static final long QP_SRQ = 20;
    static final long QP_RQ_BASE = 24;
    static final long QP_RQ_CAPACITY = 32;
    static final long QP_RQ_SGE = 36;
    static final long QP_MIN_RNR = 40;
    /** An AsyncEventType value + 1 when a peer's request moved this QP to ERR. */
    static final long QP_ERROR_CAUSE = 44;
    static final long QP_DEST_QPN = 48;
    static final long QP_MAX_DEST_RD = 52;
    /**
     * Requests served to this QP by its peer's requester, counted as RoCE would count their
     * packets (path-MTU units): written by that one requester, read by the owner's counters().
     * On the slot's second cache line: the first is read on every request and every post, and a
     * counter written there per request would pull it between the cores each time.
     */
    static final long QP_RCVD_PACKETS = 64;

    // CQ slot.
    static final long CQ_RING = 0;
    static final long CQ_CAPACITY = 8;
    /** 0 not armed, 1 armed for any completion, 2 for solicited ones. */
    static final long CQ_ARMED = 12;
    static final long CQ_CHANNEL = 16;
    static final long CQ_OVERRUN = 20;
    static final long CQ_EVENTS = 24;
    static final long CQ_LIVE = 32;

    // SRQ slot.
    static final long SRQ_RING = 0;
    static final long SRQ_CAPACITY = 8;
    static final long SRQ_SGE = 12;
    static final long SRQ_PD = 16;
    static final long SRQ_LIMIT = 20;
    static final long SRQ_LIVE = 24;
    static final long SRQ_LIMIT_FIRED = 28;

    // Channel slot.
    static final long CH_WORD = 0;
    static final long CH_LIVE = 4;

    /** A receive queue entry: wr_id, SGE count, then the SGEs (addr, length, lkey). */
    static int recvEntryBytes(int maxSge) {
        return 16 + 16 * Math.max(1, maxSge);
    }

    /** A completion entry's size and its fields. */
    static final int CQE_BYTES = 48;
    static final long CQE_WR_ID = 0;
    static final long CQE_STATUS = 8;
    static final long CQE_OPCODE = 12;
    static final long CQE_BYTE_LEN = 16;
    static final long CQE_IMM = 20;
    static final long CQE_QPN = 24;
    static final long CQE_SRC_QP = 28;
    static final long CQE_FLAGS = 32;
    static final long CQE_VENDOR_ERR = 36;

    static long mrSlot(int index) {
        return MR_TABLE + index * MR_BYTES;
    }

    static long qpSlot(int index) {
        return QP_TABLE + index * QP_BYTES;
    }

    static long cqSlot(int index) {
        return CQ_TABLE + index * CQ_BYTES;
    }

    static long srqSlot(int index) {
        return SRQ_TABLE + index * SRQ_BYTES;
    }

    static long channelSlot(int index) {
        return CHANNEL_TABLE + index * CHANNEL_BYTES;
    }
}
