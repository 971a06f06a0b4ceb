package org.jrdma.soft.wire;

/**
 * Pad bytes between the payload and the ICRC (ROCEV2-FACTS §1.7): the payload is padded with
 * zeros to a multiple of 4, and BTH.PadCnt says how many were added. Only a LAST or ONLY packet
 * can need pad, because every other packet of a message carries exactly PMTU bytes.
 */
public final class Pad {
    /** Largest pad count; BTH.PadCnt is two bits. */
    public static final int MAX = 3;

    private Pad() {
    }

    /** Pad bytes needed after {@code payloadLength} bytes of payload: {@code (-len) & 3}. */
    public static int count(int payloadLength) {
        return -payloadLength & MAX;
    }
}
