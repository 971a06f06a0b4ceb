package org.jrdma.soft.transport;

/**
 * The limits the transport stages enforce themselves. The device advertises the same values
 * (TransportLimits takes them from here), so what query_device says and what the stages do agree
 * (REL-30). Values follow rxe's rxe_param.h.
 */
public final class TransportLimits {
    public static final int MAX_SGE = 32;
    /** 8 MiB, rxe's advertised max_msg_sz; longer sends are refused at post time. */
    public static final int MAX_MSG_SIZE = 1 << 23;
    /** rxe: at most 128 unacknowledged PSNs (RXE_MAX_UNACKED_PSNS). */
    public static final int MAX_UNACKED_PSNS = 128;
    /** rxe: an AckReq at least every 64 packets (RXE_MAX_PKT_PER_ACK). */
    public static final int MAX_PKT_PER_ACK = 64;

    private TransportLimits() {
    }
}
