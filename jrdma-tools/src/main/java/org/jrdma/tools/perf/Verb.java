package org.jrdma.tools.perf;

/** What a test moves data with, and the name perftest's banner gives it ({@code testsStr}). */
enum Verb {
    SEND("Send"), WRITE("RDMA_Write"), READ("RDMA_Read"), ATOMIC("Atomic");

    private final String bannerName;

    Verb(String bannerName) {
        this.bannerName = bannerName;
    }

    String bannerName() {
        return bannerName;
    }

    /** READ and atomics are responder resources: they carry {@code -o} and need REMOTE_READ/ATOMIC. */
    boolean usesReadResources() {
        return this == READ || this == ATOMIC;
    }

    /** The peer's buffer is named by rkey and address (every verb but SEND). */
    boolean isOneSided() {
        return this != SEND;
    }
}
