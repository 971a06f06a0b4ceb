package org.jrdma.verbs.jmx;

import java.util.Map;

/** A QP, as JMX shows it: its type, state and addressing, outstanding work, and its own counters. */
public interface QueuePairMXBean {
    /**
     * The name of the device the QP was created on.
     *
     * @return the device name
     */
    String getDevice();

    /**
     * The QP number in hex, as the tools print it.
     *
     * @return the QPN, as {@code 0x…}
     */
    String getQpn();

    /**
     * The transport type ({@code ibv_qp_type} without {@code IBV_QPT_}).
     *
     * @return RC, UC, UD or GSI
     */
    String getType();

    /**
     * The current state ({@code ibv_qp_state} without {@code IBV_QPS_}).
     *
     * @return RESET, INIT, RTR, RTS, SQD, SQE or ERR
     */
    String getState();

    /**
     * The connected peer's QPN in hex (RC/UC; {@code dest_qp_num}).
     *
     * @return the peer QPN as {@code 0x…}, {@code 0x0} before RTR
     */
    String getDestQpn();

    /**
     * The send PSN as set by modify_qp on the move to RTS ({@code sq_psn}).
     *
     * @return the send PSN (24 bits)
     */
    int getSqPsn();

    /**
     * Send WRs posted and not yet completed.
     *
     * @return the outstanding send WRs
     */
    int getOutstandingSendWrs();

    /**
     * Receive WRs posted and not yet completed.
     *
     * @return the outstanding receive WRs, 0 on a QP with an SRQ
     */
    int getOutstandingRecvWrs();

    /**
     * The QP's counters by name.
     *
     * @return a snapshot of the counters, empty when the provider keeps none per QP
     */
    Map<String, Long> getCounters();

    /**
     * Packets this QP sent again after a timeout or a sequence NAK (counter {@code retransmitted_packets}).
     *
     * @return packets retransmitted
     */
    long getRetransmittedPackets();

    /**
     * Local ACK timeouts that led to a retransmission (counter {@code retry_timeouts}).
     *
     * @return retry timeouts
     */
    long getRetryTimeouts();

    /**
     * RNR NAKs this QP sent: a SEND arrived with no receive posted (counter {@code rnr_naks_sent}).
     *
     * @return RNR NAKs sent
     */
    long getRnrNaksSent();

    /**
     * RNR NAKs this QP received from its peer (counter {@code rnr_naks_rcvd}).
     *
     * @return RNR NAKs received
     */
    long getRnrNaksReceived();
}
