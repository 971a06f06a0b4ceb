package org.jrdma.soft.transport;

/**
 * Strict source checking of a connected QP (RELIABILITY-SECURITY SEC-12, see
 * {@code org.jrdma.soft.engine.SourceCheck}): the peer's UDP source port is pinned by the first packet
 * from the peer's address that makes progress — it moved the responder's expected PSN (a request
 * at ePSN executed; a duplicate or a packet ahead does not) or the completer's PSN (a response
 * acknowledged outstanding work). Pinning only on progress means an off-path attacker must
 * already know the PSN to claim the pin; a duplicate, which any PSN in half the space is, never
 * pins. The engine asks {@link #admits} before the stages run and {@link #pinOnProgress} after.
 */
public final class SourcePin {
    private SourcePin() {
    }

    /** Whether a packet from source {@code port} may reach the stages: nothing pinned yet, or the pinned port. */
    public static boolean admits(TransportQp qp, int port) {
        return qp.pinnedPeerPort == 0 || qp.pinnedPeerPort == port;
    }

    /** The QP's progress before a packet is handled (expected PSN and completer PSN). */
    public static long mark(TransportQp qp) {
        return ((long) qp.resp.ePsn << 32) | (qp.comp.compPsn & 0xFFFFFFFFL);
    }

    /** Pins {@code port} if nothing is pinned and the packet just handled made progress. */
    public static void pinOnProgress(TransportQp qp, long before, int port) {
        if (qp.pinnedPeerPort == 0 && mark(qp) != before) {
            qp.pinnedPeerPort = port;
        }
    }

    /** The pinned source port, 0 while none is. */
    public static int pinned(TransportQp qp) {
        return qp.pinnedPeerPort;
    }
}
