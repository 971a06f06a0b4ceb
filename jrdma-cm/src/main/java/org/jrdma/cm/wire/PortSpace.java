package org.jrdma.cm.wire;

/** rdma_cm port spaces (§7.2): the upper part of an rdma_cm service ID ({@link ServiceId}). */
public enum PortSpace {
    /** RDMA_PS_IPOIB: IP over IB. */
    IPOIB(0x0002),
    /** RDMA_PS_TCP: reliable connections (RC), what rping and most rdma_cm programs use. */
    TCP(0x0106),
    /** RDMA_PS_UDP: unreliable datagrams, resolved with SIDR_REQ/SIDR_REP. */
    UDP(0x0111),
    /** RDMA_PS_IB: any QP type. */
    IB(0x013F);

    private final int code;

    PortSpace(int code) {
        this.code = code;
    }

    /**
     * The port space's code, the service ID's bits 31–16.
     *
     * @return the code
     */
    public int code() {
        return code;
    }

    /**
     * The port space with this code, or null.
     *
     * @param code a port-space code
     * @return the port space, or null
     */
    public static PortSpace of(int code) {
        for (PortSpace p : values()) {
            if (p.code == code) {
                return p;
            }
        }
        return null;
    }
}
