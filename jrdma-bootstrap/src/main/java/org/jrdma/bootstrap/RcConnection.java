package org.jrdma.bootstrap;

import org.jrdma.verbs.QueuePair;

/** A connected RC QP (in RTS) with both sides' connection info. */
public record RcConnection(QueuePair qp, ConnInfo local, ConnInfo remote) implements AutoCloseable {
    @Override
    public void close() {
        qp.close();
    }
}
