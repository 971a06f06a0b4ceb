package org.jrdma.verbs;

/** {@code enum ibv_wc_opcode}. Receive-side opcodes have bit 7 set (test with {@link #isRecv()}). */
public enum WcOpcode {
    /** {@code IBV_WC_SEND}: a SEND, SEND_WITH_IMM or SEND_WITH_INV work request completed. */
    SEND(0),
    /** {@code IBV_WC_RDMA_WRITE}: an RDMA WRITE (with or without immediate) completed. */
    RDMA_WRITE(1),
    /** {@code IBV_WC_RDMA_READ}: an RDMA READ completed; the data is in the local buffers. */
    RDMA_READ(2),
    /** {@code IBV_WC_COMP_SWAP}: an atomic compare-and-swap completed; the old value is local. */
    COMP_SWAP(3),
    /** {@code IBV_WC_FETCH_ADD}: an atomic fetch-and-add completed; the old value is local. */
    FETCH_ADD(4),
    /** {@code IBV_WC_BIND_MW}: a memory-window bind completed. */
    BIND_MW(5),
    /** {@code IBV_WC_LOCAL_INV}: a local invalidate completed. */
    LOCAL_INV(6),
    /** {@code IBV_WC_TSO}: a TCP segmentation offload send completed. */
    TSO(7),
    /** {@code IBV_WC_FLUSH}: a FLUSH completed. */
    FLUSH(8),
    /** {@code IBV_WC_ATOMIC_WRITE}: an atomic write completed. */
    ATOMIC_WRITE(9),
    /** {@code IBV_WC_RECV}: a receive WR took an incoming SEND. */
    RECV(128),
    /** {@code IBV_WC_RECV_RDMA_WITH_IMM}: a receive WR was consumed by an RDMA WRITE with immediate. */
    RECV_RDMA_WITH_IMM(129);

    private final int value;

    WcOpcode(int value) {
        this.value = value;
    }

    /** {@return the {@code IBV_WC_*} opcode value} */
    public int value() {
        return value;
    }

    /**
     * Is this a receive-side completion?
     *
     * @return true when bit 7 ({@code IBV_WC_RECV}) is set
     */
    public boolean isRecv() {
        return (value & 0x80) != 0;
    }
}
