package org.jrdma.bootstrap;

import org.jrdma.verbs.AddressHandle;
import org.jrdma.verbs.QueuePair;

/**
 * A connected QP (in RTS) with both sides' connection info; for UD also the address handle
 * of the peer (null otherwise).
 */
public record RcConnection(QueuePair qp, ConnInfo local, ConnInfo remote, AddressHandle peerAh) implements AutoCloseable {
    public RcConnection(QueuePair qp, ConnInfo local, ConnInfo remote) {
        this(qp, local, remote, null);
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
