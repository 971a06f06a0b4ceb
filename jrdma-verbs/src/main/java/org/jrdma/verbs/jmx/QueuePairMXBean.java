package org.jrdma.verbs.jmx;

import java.util.Map;

/** A QP, as JMX shows it: its type, state and addressing, outstanding work, and its own counters. */
public interface QueuePairMXBean {
    String getDevice();

    /** The QP number in hex, as the tools print it (0x…). */
    String getQpn();

    /** RC, UC, UD or GSI. */
    String getType();

    /** RESET, INIT, RTR, RTS, SQD, SQE or ERR. */
    String getState();

    /** The connected peer's QPN in hex (RC/UC), 0x0 before RTR. */
    String getDestQpn();

    /** The next send PSN as set by modify_qp (RTS). */
    int getSqPsn();

    /** Send WRs posted and not yet completed. */
    int getOutstandingSendWrs();

    /** Receive WRs posted and not yet completed (0 on an SRQ). */
    int getOutstandingRecvWrs();

    /** The QP's counters by name; empty when the provider keeps none per QP. */
    Map<String, Long> getCounters();

    long getRetransmittedPackets();

    long getRetryTimeouts();

    long getRnrNaksSent();

    long getRnrNaksReceived();
}
