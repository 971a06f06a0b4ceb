/**
 * The RoCEv2 wire format (ROCEV2-FACTS §1): header flyweights over a {@link java.nio.ByteBuffer},
 * the opcode table, 24-bit PSN/MSN arithmetic, the ICRC, and receive-side classification.
 *
 * <p>Everything here runs once per packet, so nothing allocates per packet: flyweights are
 * wrapped again and again over the datagram buffer, the CRC engine is reused, and the opcode
 * table is built once. None of the stateful classes is thread-safe; give each engine thread
 * its own instances.
 */
package org.jrdma.soft.wire;
