package org.jrdma.verbs;

/** {@code enum ibv_wc_opcode}. Receive-side opcodes have bit 7 set (test with {@link #isRecv()}). */
public enum WcOpcode {
    SEND(0), RDMA_WRITE(1), RDMA_READ(2), COMP_SWAP(3), FETCH_ADD(4), BIND_MW(5), LOCAL_INV(6),
    TSO(7), FLUSH(8), ATOMIC_WRITE(9), RECV(128), RECV_RDMA_WITH_IMM(129);

    private final int value;

    WcOpcode(int value) {
        this.value = value;
    }

    public int value() {
        return value;
    }

    public boolean isRecv() {
        return (value & 0x80) != 0;
    }
}
