package org.jrdma.soft.transport;

/** Where a QP's receives come from: its own receive queue, or a shared receive queue. */
public interface ReceiveSource {
    /** Moves the oldest posted receive into {@code into}; false when none is posted. */
    boolean take(RecvWqe into);
}
