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

    @Override
    public void close() {
        try {
            qp.close();
        } finally {
            if (peerAh != null) {
                peerAh.close();
            }
        }
    }
}
