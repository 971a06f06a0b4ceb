package org.jrdma.soft.wire;

/**
 * Flyweight over the 4-byte ACK Extended Transport Header (ROCEV2-FACTS §1.5, §1.6), carried by
 * ACKs, atomic ACKs and the first/last/only READ responses.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |R|Typ|  Value  |                      MSN                      |  0
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  Syndrome = R (reserved 0) | Type (00 ACK, 01 RNR NAK, 10 reserved, 11 NAK) | 5-bit value
 * </pre>
 *
 * The 5-bit value is the credit code of an ACK (§2.4; {@link #CREDIT_INVALID} = not tracked,
 * which rxe always sends), the RNR timer code of an RNR NAK (§2.3), or the NAK code. The type
 * is tested with {@code (syndrome & 0xE0)} like rxe's AETH_TYPE_MASK, so a set reserved bit 7
 * makes the syndrome none of ACK, RNR NAK or NAK.
 */
public final class Aeth extends HeaderFlyweight<Aeth> {
    public static final int LENGTH = 4;
    public static final int SYNDROME_OFFSET = 0;
    /** MSN is the low 24 bits of the word at offset 0. */
    public static final int MSN_OFFSET = 1;

    /** Reserved bit and the two type bits (rxe AETH_TYPE_MASK). */
    public static final int TYPE_MASK = 0xE0;
    public static final int VALUE_MASK = 0x1F;
    public static final int TYPE_ACK = 0x00;
    public static final int TYPE_RNR_NAK = 0x20;
    public static final int TYPE_RESERVED = 0x40;
    public static final int TYPE_NAK = 0x60;

    /** ACK credit code 31: credits not tracked; rxe always sends it. */
    public static final int CREDIT_INVALID = 0x1F;
    /** An ACK with no credit information: the syndrome rxe puts in every ACK. */
    public static final int ACK_SYNDROME = TYPE_ACK | CREDIT_INVALID;

    /** NAK syndromes (type 11 plus the NAK code), ib_hdrs.h. */
    public static final int NAK_PSN_SEQUENCE_ERROR = 0x60;
    public static final int NAK_INVALID_REQUEST = 0x61;
    public static final int NAK_REMOTE_ACCESS_ERROR = 0x62;
    public static final int NAK_REMOTE_OPERATIONAL_ERROR = 0x63;
    public static final int NAK_INVALID_RD_REQUEST = 0x64;

    public int syndrome() {
        return buffer.get(offset + SYNDROME_OFFSET) & 0xFF;
    }

    public Aeth syndrome(int syndrome) {
        buffer.put(offset + SYNDROME_OFFSET, (byte) syndrome);
        return this;
    }

    public int msn() {
        return get24(SYNDROME_OFFSET);
    }

    public Aeth msn(int msn) {
        put24(SYNDROME_OFFSET, msn);
        return this;
    }

    public boolean isAck() {
        return isAck(syndrome());
    }

    public boolean isRnrNak() {
        return isRnrNak(syndrome());
    }

    public boolean isNak() {
        return isNak(syndrome());
    }

    public static boolean isAck(int syndrome) {
        return (syndrome & TYPE_MASK) == TYPE_ACK;
    }

    public static boolean isRnrNak(int syndrome) {
        return (syndrome & TYPE_MASK) == TYPE_RNR_NAK;
    }

    public static boolean isNak(int syndrome) {
        return (syndrome & TYPE_MASK) == TYPE_NAK;
    }

    /** NAK code 0..4 of a NAK syndrome (0 = PSN sequence error … 4 = invalid RD request). */
    public static int nakCode(int syndrome) {
        return syndrome & VALUE_MASK;
    }

    /** Credit code of an ACK syndrome (§2.4). */
    public static int creditCode(int syndrome) {
        return syndrome & VALUE_MASK;
    }

    /** RNR timer code of an RNR NAK syndrome (§2.3). */
    public static int rnrTimer(int syndrome) {
        return syndrome & VALUE_MASK;
    }

    public static int ackSyndrome(int creditCode) {
        return TYPE_ACK | (creditCode & VALUE_MASK);
    }

    /** rxe sends {@code 0x20 | min_rnr_timer}. */
    public static int rnrNakSyndrome(int rnrTimer) {
        return TYPE_RNR_NAK | (rnrTimer & VALUE_MASK);
    }
}
