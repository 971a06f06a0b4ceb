package org.jrdma.soft.transport;

/**
 * How the responder's acknowledgements leave: a {@link PacketOut} that may hold plain ACKs
 * back and send them later. The policy itself is the engine's (it knows the passes); the
 * responder only marks the pass boundaries and asks for a QP's held ACK to go out before
 * anything else it sends for that QP.
 */
public interface AckPolicy extends PacketOut {
    /** A new engine pass begins. */
    void beginPass();

    /** Whether an ACK is waiting (for the engine thread's decision to sleep). */
    boolean anyHeld();

    /** Sends the ACK held for {@code qp}, if any (call with the QP's lock held). */
    void flush(TransportQp qp);

    /** End of a pass: the ACKs held since an earlier pass go out; returns how many were sent. */
    int flushAll();

    /** Every held ACK goes out now. */
    int flushEverything();
}
