package org.jrdma.soft.transport;

import java.lang.foreign.MemorySegment;
import org.jrdma.soft.memory.Gather;

/**
 * Builds and transmits packets for the stages; one per device, used on the engine thread.
 * Which extension headers a packet carries follows from its opcode (the opcode table).
 */
public interface PacketOut {
    /**
     * A SEND or RDMA WRITE packet of {@code qp}: BTH, then — as the opcode requires — RETH
     * ({@code va}, {@code rkey}, {@code dmaLength}), ImmDt or IETH (both from {@code immData}),
     * then {@code length} bytes from {@code gather} at {@code offset}.
     */
    void sendData(TransportQp qp, int opcode, int psn, boolean ackReq, boolean solicited, long va, int rkey,
            int dmaLength, int immData, Gather gather, long offset, int length);

    /** A UD SEND_ONLY (with DETH, and ImmDt when the opcode has it) to {@code dest}'s QP {@code destQpn}. */
    void sendUd(TransportQp qp, UdDestination dest, int destQpn, int qkey, int opcode, int psn, boolean solicited,
            int immData, Gather gather, int length);

    /** An RDMA READ request for {@code length} bytes at {@code va}. */
    void sendReadRequest(TransportQp qp, int psn, long va, int rkey, int length);

    /** A COMPARE_SWAP or FETCH_ADD request. */
    void sendAtomic(TransportQp qp, int opcode, int psn, long va, int rkey, long swapAdd, long compare);

    /** An RDMA READ response packet (AETH with {@code msn} where the opcode has one). */
    void sendReadResponse(TransportQp qp, int opcode, int psn, int msn, MemorySegment src, long srcOffset, int length);

    /** An ATOMIC ACKNOWLEDGE with the value the target held before the operation. */
    void sendAtomicAck(TransportQp qp, int psn, int msn, long original);

    /** An ACKNOWLEDGE (ACK, RNR NAK or NAK by its syndrome) for {@code psn}. */
    void sendAck(TransportQp qp, int syndrome, int psn, int msn);
}
