package org.jrdma.verbs;

/** {@code enum ibv_wr_opcode}: what a send work request asks for. */
public enum WrOpcode {
    /** {@code IBV_WR_RDMA_WRITE}: write the local buffers to remoteAddr/rkey; no receive WR is used. */
    RDMA_WRITE(0),
    /** {@code IBV_WR_RDMA_WRITE_WITH_IMM}: an RDMA WRITE that also consumes a peer receive WR with immData. */
    RDMA_WRITE_WITH_IMM(1),
    /** {@code IBV_WR_SEND}: send the local buffers into the peer's next receive WR. */
    SEND(2),
    /** {@code IBV_WR_SEND_WITH_IMM}: a SEND carrying immData. */
    SEND_WITH_IMM(3),
    /** {@code IBV_WR_RDMA_READ}: read remoteAddr/rkey into the local buffers (RC). */
    RDMA_READ(4),
    /** {@code IBV_WR_ATOMIC_CMP_AND_SWP}: 8-byte compare-and-swap at remoteAddr; the old value lands locally (RC). */
    ATOMIC_CMP_AND_SWP(5),
    /** {@code IBV_WR_ATOMIC_FETCH_AND_ADD}: 8-byte fetch-and-add at remoteAddr; the old value lands locally (RC). */
    ATOMIC_FETCH_AND_ADD(6),
    /** {@code IBV_WR_LOCAL_INV}: invalidate the local rkey invalidateRkey. */
    LOCAL_INV(7),
    /** {@code IBV_WR_BIND_MW}: bind a type-2 memory window (mw, bind). */
    BIND_MW(8),
    /** {@code IBV_WR_SEND_WITH_INV}: a SEND that also invalidates the peer's rkey invalidateRkey. */
    SEND_WITH_INV(9),
    /** {@code IBV_WR_TSO}: a TCP segmentation offload send (RAW_PACKET). */
    TSO(10),
    /** {@code IBV_WR_FLUSH}: make earlier writes to a remote region visible or persistent. */
    FLUSH(14),
    /** {@code IBV_WR_ATOMIC_WRITE}: an 8-byte atomic write at remoteAddr. */
    ATOMIC_WRITE(15);

    private final int value;

    WrOpcode(int value) {
        this.value = value;
    }

    /** {@return the {@code IBV_WR_*} opcode value} */
    public int value() {
        return value;
    }

    /** {@return the opcode a send-side completion reports for this WR (ibv_poll_cq.3)} */
    public WcOpcode completionOpcode() {
        return switch (this) {
            case SEND, SEND_WITH_IMM, SEND_WITH_INV -> WcOpcode.SEND;
            case RDMA_WRITE, RDMA_WRITE_WITH_IMM -> WcOpcode.RDMA_WRITE;
            case RDMA_READ -> WcOpcode.RDMA_READ;
            case ATOMIC_CMP_AND_SWP -> WcOpcode.COMP_SWAP;
            case ATOMIC_FETCH_AND_ADD -> WcOpcode.FETCH_ADD;
            case LOCAL_INV -> WcOpcode.LOCAL_INV;
            case BIND_MW -> WcOpcode.BIND_MW;
            case TSO -> WcOpcode.TSO;
            case FLUSH -> WcOpcode.FLUSH;
            case ATOMIC_WRITE -> WcOpcode.ATOMIC_WRITE;
        };
    }

    /**
     * Does a WR of this opcode carry immediate data?
     *
     * @return true for SEND_WITH_IMM and RDMA_WRITE_WITH_IMM
     */
    public boolean hasImmediate() {
        return this == SEND_WITH_IMM || this == RDMA_WRITE_WITH_IMM;
    }
}
