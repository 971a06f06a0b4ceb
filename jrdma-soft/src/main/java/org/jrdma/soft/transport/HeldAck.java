package org.jrdma.soft.transport;

/**
 * A plain ACK the responder holds back to coalesce it with later ones. When it goes is the
 * engine's ACK policy (engine.CoalescingAcks); the state is the QP's, reset with its
 * responder state, and touched only under the QP's lock.
 */
public final class HeldAck {
    /** Whether an ACK is held. */
    public boolean held;
    /** The PSN it acknowledges up to. */
    public int psn;
    /** The engine pass in which it was first held. */
    public long pass;
}
