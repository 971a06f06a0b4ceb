package org.jrdma.cm.wire;

/**
 * rdma_cm service IDs (§7.7): {@code (port space << 16) | port}, e.g. {@code 0x0000000001061c06}
 * for rping's default port 7174 in RDMA_PS_TCP. TCP, UDP and IB fall in the IBTA "RDMA IP CM
 * service" range (prefix {@code 0x0000000001}); IPOIB lies below it, as Linux computes it.
 *
 * <p>A REQ may carry any 64-bit service ID (native IB CM users pick their own), so an ID that is
 * not of this form is not an error: {@link #portSpace} returns null for it, and a passive side
 * answers such a REQ with REJ {@link RejectReason#INVALID_SERVICE_ID}.
 */
public final class ServiceId {
    private ServiceId() {
    }

    /**
     * The rdma_cm service ID of a port.
     *
     * @param ps the port space
     * @param port the port, 0..65535
     * @return {@code (ps.code() << 16) | port}
     * @throws IllegalArgumentException if the port does not fit 16 bits
     */
    public static long of(PortSpace ps, int port) {
        if (port >>> 16 != 0) {
            throw new IllegalArgumentException("port = " + port + "; a port is 0..65535");
        }
        return (long) ps.code() << 16 | port;
    }

    /**
     * The port space of an rdma_cm service ID, or null if {@code sid} is not one.
     *
     * @param sid a 64-bit service ID
     * @return the port space, or null
     */
    public static PortSpace portSpace(long sid) {
        long code = sid >>> 16;
        return code >>> 16 == 0 ? PortSpace.of((int) code) : null;
    }

    /**
     * The port of an rdma_cm service ID; IllegalArgumentException if {@link #portSpace} is null.
     *
     * @param sid an rdma_cm service ID
     * @return its port, 0..65535
     */
    public static int port(long sid) {
        if (portSpace(sid) == null) {
            throw new IllegalArgumentException(
                    "service ID 0x" + Long.toHexString(sid) + " is not an rdma_cm service ID");
        }
        return (int) (sid & 0xFFFF);
    }
}
