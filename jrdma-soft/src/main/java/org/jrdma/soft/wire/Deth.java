package org.jrdma.soft.wire;

/**
 * Flyweight over the 8-byte Datagram Extended Transport Header (ROCEV2-FACTS §1.5), carried by
 * every UD packet.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                             Q_Key                             |  0
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |   Reserved    |                   Source QP                   |  4
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 */
public final class Deth extends HeaderFlyweight<Deth> {
    public static final int LENGTH = 8;
    public static final int QKEY_OFFSET = 0;
    /** Source QP is the low 24 bits of the word at offset 4. */
    public static final int SRC_QP_OFFSET = 5;

    /** The Q_Key QP1 must be addressed with (rxe GSI_QKEY, §1.10). */
    public static final int GSI_QKEY = 0x80010000;

    public int qkey() {
        return buffer.getInt(offset + QKEY_OFFSET);
    }

    public Deth qkey(int qkey) {
        buffer.putInt(offset + QKEY_OFFSET, qkey);
        return this;
    }

    public int srcQp() {
        return get24(4);
    }

    /** Sets the source QP and zeroes the reserved byte in front of it. */
    public Deth srcQp(int qpn) {
        buffer.putInt(offset + 4, qpn & Bth.QPN_MASK);
        return this;
    }
}
