package org.jrdma.soft.wire;

/**
 * Flyweight over the 4-byte Immediate Data header (ROCEV2-FACTS §1.5).
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                        Immediate Data                         |  0
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * The value is opaque; the int returned is the four bytes read in network order, which is
 * what ibv_wc.imm_data holds (it is big-endian in ibverbs too).
 */
public final class ImmDt extends HeaderFlyweight<ImmDt> {
    public static final int LENGTH = 4;
    public static final int IMMEDIATE_OFFSET = 0;

    public int immediate() {
        return buffer.getInt(offset + IMMEDIATE_OFFSET);
    }

    public ImmDt immediate(int immediate) {
        buffer.putInt(offset + IMMEDIATE_OFFSET, immediate);
        return this;
    }
}
