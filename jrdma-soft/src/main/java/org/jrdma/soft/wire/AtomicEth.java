package org.jrdma.soft.wire;

/**
 * Flyweight over the 28-byte Atomic Extended Transport Header (ROCEV2-FACTS §1.5), carried by
 * COMPARE_SWAP and FETCH_ADD. It is packed: the 64-bit fields at 12 and 20 are not 8-byte
 * aligned.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                 Virtual Address (bits 63..32)                 |  0
 *  |                 Virtual Address (bits 31..0)                  |  4
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                             R_Key                             |  8
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |               Swap or Add Data (bits 63..32)                  | 12
 *  |               Swap or Add Data (bits 31..0)                   | 16
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                 Compare Data (bits 63..32)                    | 20
 *  |                 Compare Data (bits 31..0)                     | 24
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * CMP_SWAP: swap = the new value, compare = the expected one. FETCH_ADD: the addend goes in
 * swap/add and compare is unused (rxe sends 0). The VA must be 8-byte aligned; rxe NAKs a
 * misaligned one as an invalid request.
 */
public final class AtomicEth extends HeaderFlyweight<AtomicEth> {
    public static final int LENGTH = 28;
    public static final int VA_OFFSET = 0;
    public static final int RKEY_OFFSET = 8;
    public static final int SWAP_ADD_OFFSET = 12;
    public static final int COMPARE_OFFSET = 20;

    public long va() {
        return buffer.getLong(offset + VA_OFFSET);
    }

    public AtomicEth va(long va) {
        buffer.putLong(offset + VA_OFFSET, va);
        return this;
    }

    public int rkey() {
        return buffer.getInt(offset + RKEY_OFFSET);
    }

    public AtomicEth rkey(int rkey) {
        buffer.putInt(offset + RKEY_OFFSET, rkey);
        return this;
    }

    public long swapAdd() {
        return buffer.getLong(offset + SWAP_ADD_OFFSET);
    }

    public AtomicEth swapAdd(long swapAdd) {
        buffer.putLong(offset + SWAP_ADD_OFFSET, swapAdd);
        return this;
    }

    public long compare() {
        return buffer.getLong(offset + COMPARE_OFFSET);
    }

    public AtomicEth compare(long compare) {
        buffer.putLong(offset + COMPARE_OFFSET, compare);
        return this;
    }
}
