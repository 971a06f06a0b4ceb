package org.jrdma.soft.transport;

/** Per-QP and per-device transport counters (names after rxe's hw counters where they exist). */
public enum QpCounter {
    SENT_PACKETS,
    SENT_BYTES,
    RCVD_PACKETS,
    RCVD_BYTES,
    RETRANSMITTED_PACKETS,
    RETRY_TIMEOUTS,
    SEQ_NAKS_SENT,
    SEQ_NAKS_RCVD,
    RNR_NAKS_SENT,
    RNR_NAKS_RCVD,
    DUPLICATE_REQUESTS,
    OUT_OF_SEQUENCE,
    ACKS_SENT,
    /** ACKs folded into a later one of the same receive burst. */
    ACKS_COALESCED,
    ACKS_RCVD,
    COMPLETER_DROPS,
    RETRY_EXCEEDED,
    RNR_RETRY_EXCEEDED,
    CQ_OVERFLOWS,
    /** Requests refused by the rkey/range/access check (NAK remote access error). */
    REMOTE_ACCESS_ERRORS,
    /** Duplicate READs/atomics with no matching responder resource (dropped, class D). */
    DUPLICATES_DROPPED,
    /** UC messages dropped after a gap or a bad packet. */
    UC_MESSAGES_DROPPED,
    /** UD datagrams dropped: no receive posted, buffer too small, or a Q_Key mismatch. */
    UD_DATAGRAMS_DROPPED,
    /** The kernel had no room for a datagram (it is lost; retransmission recovers it). */
    TX_QUEUE_FULL,
    /** A send failed with an I/O error (likewise a lost packet). */
    TX_ERRORS,
    /** Packets not sent or not taken while the port was down. */
    PORT_DOWN_DROPS,
    /**
     * Duplicate READs not replayed because they ask for nothing a genuine retry could need
     * (duplicate-READ amplification bound, SEC-20; see ReadAtomicResponder#duplicateRead).
     */
    DUPLICATE_READS_LIMITED,
    /**
     * Responses for PSNs this requester never sent (also counted in COMPLETER_DROPS). A real peer
     * never sends one: it means forged responses (SEC-15), or — the alert of SEC-13/SEC-14 — that
     * the peer accepted requests injected in our name and is acknowledging them to us.
     */
    UNSENT_PSN_RESPONSES;

    /** The counter's name as tools print it, e.g. {@code retransmitted_packets}. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
