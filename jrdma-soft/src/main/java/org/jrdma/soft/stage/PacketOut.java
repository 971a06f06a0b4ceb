package org.jrdma.soft.stage;

/**
 * Builds and transmits packets for the stages; one per device, used on the engine thread.
 * Requests carry payload gathered from a work request; responses carry an AETH.
 */
public interface PacketOut {
    /**
     * Sends one request packet of {@code qp}: BTH with {@code opcode}/{@code psn}, ImmDt when
     * {@code withImm}, then {@code length} bytes from {@code gather} at {@code offset}.
     */
    void sendRequest(TransportQp qp, int opcode, int psn, boolean ackReq, boolean solicited, boolean withImm,
            int immData, Gather gather, long offset, int length);

    /** Sends an ACKNOWLEDGE (ACK, RNR NAK or NAK by its syndrome) for {@code psn}. */
    void sendAck(TransportQp qp, int syndrome, int psn, int msn);
}
