package org.jrdma.bootstrap;

import org.jrdma.verbs.AddressHandle;
import org.jrdma.verbs.QueuePair;

/**
 * A connected QP (in RTS) with both sides' connection info; for UD also the address handle
 * of the peer (null otherwise). Closing it destroys the QP and the address handle.
 *
 * @param qp the QP, in RTS
 * @param local the info this side sent
 * @param remote the info the peer sent
 * @param peerAh the address handle to send to the peer with, for UD; null for RC and UC
 */
public record RcConnection(QueuePair qp, ConnInfo local, ConnInfo remote, AddressHandle peerAh) implements AutoCloseable {
    /**
     * A connection with no address handle (RC or UC).
     *
     * @param qp the QP, in RTS
     * @param local the info this side sent
     * @param remote the info the peer sent
     */
    public RcConnection(QueuePair qp, ConnInfo local, ConnInfo remote) {
        this(qp, local, remote, null);
    }

    /**
     * The buffer the peer exposed ({@code RcOptions.exposing} on its side): where this side's
     * RDMA WRITEs, READs and atomics go, {@code .rdma(b.address(), b.rkey())}.
     *
     * @return the peer's buffer
     * @throws IllegalStateException if the peer sent none: it exposed no region, or the exchange's
     *     codec has no field for one (rc_pingpong's; use {@code TcpOptions.perftest()})
     */
    public RemoteBuffer remoteBuffer() {
        if (remote.buffer() == null) {
            throw new IllegalStateException("the peer sent no buffer (QPN 0x" + Integer.toHexString(remote.qpn())
                    + "): it exposed no memory region (RcOptions.exposing), or the exchange's codec carries no"
                    + " rkey and address (rc_pingpong's and the seed's do not; TcpOptions.perftest() does)");
        }
        return remote.buffer();
    }

    @Override
    public void close() {
        ConnectionEvents.closed(this);
        try {
            qp.close();
        } finally {
            if (peerAh != null) {
                peerAh.close();
            }
        }
    }
}
