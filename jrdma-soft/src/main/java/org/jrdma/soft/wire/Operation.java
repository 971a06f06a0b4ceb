package org.jrdma.soft.wire;

/** What an opcode does, independent of transport and packet position. */
public enum Operation {
    SEND(true),
    RDMA_WRITE(true),
    RDMA_READ_REQUEST(true),
    COMPARE_SWAP(true),
    FETCH_ADD(true),
    READ_RESPONSE(false),
    ACK(false),
    ATOMIC_ACK(false),
    /** RoCEv2 congestion notification (opcode 0x81). */
    CNP(false),
    /** A reserved or unimplemented opcode. */
    UNKNOWN(false);

    private final boolean request;

    Operation(boolean request) {
        this.request = request;
    }

    /** Requests go to the responder; ACKs and read responses go to the completer (§1.10 step 9). */
    public boolean isRequest() {
        return request;
    }

    public boolean isResponse() {
        return this == READ_RESPONSE || this == ACK || this == ATOMIC_ACK;
    }

    public boolean isAtomic() {
        return this == COMPARE_SWAP || this == FETCH_ADD;
    }
}
