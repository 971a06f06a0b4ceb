/**
 * The IB CM wire format: the 256-byte MADs that carry REQ, REP, RTU, REJ, MRA, DREQ, DREP and
 * SIDR_REQ/SIDR_REP on the GSI QP (ROCEV2-FACTS §7.4–7.6), the rdma_cm header inside a REQ's
 * private data (§7.7), rdma_cm service IDs, and the reject reasons (§7.10).
 *
 * <p>Messages are records whose components are the §7.6 fields in the order of their first byte,
 * so {@code CmCodec.decode} then {@code CmCodec.encode} gives back the same 256 bytes for
 * everything but reserved bits (which are sent as zero and ignored on receipt). Byte arrays are
 * copied in and out, and compared by content in {@code equals}.
 *
 * <p>The records know nothing of the wire. Each message is one field table in {@code CmTables}
 * (name, byte offset, bit offset, bit width: IBA vol 1 §12.6 as Linux's {@code cm_msgs.h} writes
 * it), and one codec, {@code CmLayout}, reads and writes every table — the MAD header's and a
 * REQ's two paths included.
 */
package org.jrdma.cm.wire;
