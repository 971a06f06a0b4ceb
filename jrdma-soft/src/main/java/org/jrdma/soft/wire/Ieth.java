package org.jrdma.soft.wire;

/**
 * Flyweight over the 4-byte Invalidate Extended Transport Header (ROCEV2-FACTS §1.5), carried
 * by SEND_LAST/ONLY_WITH_INVALIDATE.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                     R_Key to invalidate                       |  0
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 */
public final class Ieth extends HeaderFlyweight<Ieth> {
    public static final int LENGTH = 4;
    public static final int RKEY_OFFSET = 0;

    public int rkey() {
        return buffer.getInt(offset + RKEY_OFFSET);
    }

    public Ieth rkey(int rkey) {
        buffer.putInt(offset + RKEY_OFFSET, rkey);
        return this;
    }
}
