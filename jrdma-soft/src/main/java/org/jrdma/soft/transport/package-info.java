/**
 * The transport stages and the per-QP state they drive: the {@code Requester} (sends work
 * requests as packets), the {@code Completer} (ACKs, NAKs, READ responses, timers, completions),
 * the {@code Responder} with {@code ReadAtomicResponder} and {@code UdResponder} (executes
 * requests, outcomes by {@code ErrorTable}), over a {@code TransportQp} (send and receive
 * queues, attributes, posting, counters). The stages send through a {@code PacketOut} and hand
 * ACKs to an {@code AckPolicy}; both are the engine's, so the stages can be run alone in tests.
 * {@code TransportLimits} are the limits the stages enforce themselves.
 */
package org.jrdma.soft.transport;
