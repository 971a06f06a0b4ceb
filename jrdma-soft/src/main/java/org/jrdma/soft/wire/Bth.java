package org.jrdma.soft.wire;

/**
 * Flyweight over the 12-byte Base Transport Header (ROCEV2-FACTS §1.3), big-endian.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |    OpCode     |S|M|Pad| TVer  |             P_Key             |  0
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |F|B|  Resv6a   |                    DestQP                     |  4
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |A|    Resv7    |                      PSN                      |  8
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  S = solicited event, M = MigReq, F/B = FECN/BECN, A = AckReq
 * </pre>
 *
 * Byte 4 (FECN, BECN, Resv6a) is the "resv8a" byte the ICRC masks to 0xFF (§1.8), because
 * switches may set FECN/BECN in flight. Setters mask their argument to the field's width.
 */
public final class Bth extends HeaderFlyweight<Bth> {
    public static final int LENGTH = 12;

    public static final int OPCODE_OFFSET = 0;
    /** SE, MigReq, PadCnt and TVer share this byte. */
    public static final int FLAGS_OFFSET = 1;
    public static final int PKEY_OFFSET = 2;
    /** FECN, BECN and Resv6a; the byte the ICRC masks. */
    public static final int RESV8A_OFFSET = 4;
    /** DestQP is the low 24 bits of the word at offset 4. */
    public static final int DEST_QP_OFFSET = 5;
    /** AckReq and Resv7 share this byte. */
    public static final int ACK_REQ_OFFSET = 8;
    /** PSN is the low 24 bits of the word at offset 8. */
    public static final int PSN_OFFSET = 9;

    public static final int SE_MASK = 0x80;
    public static final int MIG_REQ_MASK = 0x40;
    public static final int PAD_MASK = 0x30;
    public static final int PAD_SHIFT = 4;
    public static final int TVER_MASK = 0x0F;
    public static final int FECN_MASK = 0x80;
    public static final int BECN_MASK = 0x40;
    public static final int ACK_REQ_MASK = 0x80;
    public static final int QPN_MASK = 0xFFFFFF;

    /** Full-membership default P_Key; rxe always sends it (§2.8). */
    public static final int DEFAULT_PKEY = 0xFFFF;
    /** QP1, the GSI QP that carries CM MADs. */
    public static final int GSI_QPN = 1;
    /** The multicast destination QPN. */
    public static final int MULTICAST_QPN = 0xFFFFFF;

    /** Zeroes all 12 bytes, so a header being built starts from reserved bits = 0 and TVer = 0. */
    public Bth clear() {
        buffer.putInt(offset, 0);
        buffer.putInt(offset + 4, 0);
        buffer.putInt(offset + 8, 0);
        return this;
    }

    public int opcode() {
        return buffer.get(offset + OPCODE_OFFSET) & 0xFF;
    }

    public Bth opcode(int opcode) {
        buffer.put(offset + OPCODE_OFFSET, (byte) opcode);
        return this;
    }

    public boolean se() {
        return (flags() & SE_MASK) != 0;
    }

    public Bth se(boolean se) {
        return flag(SE_MASK, se);
    }

    public boolean migReq() {
        return (flags() & MIG_REQ_MASK) != 0;
    }

    public Bth migReq(boolean migReq) {
        return flag(MIG_REQ_MASK, migReq);
    }

    public int padCount() {
        return (flags() & PAD_MASK) >>> PAD_SHIFT;
    }

    public Bth padCount(int padCount) {
        buffer.put(offset + FLAGS_OFFSET, (byte) ((flags() & ~PAD_MASK) | ((padCount << PAD_SHIFT) & PAD_MASK)));
        return this;
    }

    /** Transport header version; 0 is the only one defined, and rxe drops anything else (§1.10). */
    public int tver() {
        return flags() & TVER_MASK;
    }

    public Bth tver(int tver) {
        buffer.put(offset + FLAGS_OFFSET, (byte) ((flags() & ~TVER_MASK) | (tver & TVER_MASK)));
        return this;
    }

    public int pkey() {
        return buffer.getShort(offset + PKEY_OFFSET) & 0xFFFF;
    }

    public Bth pkey(int pkey) {
        buffer.putShort(offset + PKEY_OFFSET, (short) pkey);
        return this;
    }

    public boolean fecn() {
        return (buffer.get(offset + RESV8A_OFFSET) & FECN_MASK) != 0;
    }

    public Bth fecn(boolean fecn) {
        return bit(RESV8A_OFFSET, FECN_MASK, fecn);
    }

    public boolean becn() {
        return (buffer.get(offset + RESV8A_OFFSET) & BECN_MASK) != 0;
    }

    public Bth becn(boolean becn) {
        return bit(RESV8A_OFFSET, BECN_MASK, becn);
    }

    public int destQp() {
        return get24(RESV8A_OFFSET);
    }

    public Bth destQp(int qpn) {
        put24(RESV8A_OFFSET, qpn);
        return this;
    }

    public boolean ackReq() {
        return (buffer.get(offset + ACK_REQ_OFFSET) & ACK_REQ_MASK) != 0;
    }

    public Bth ackReq(boolean ackReq) {
        return bit(ACK_REQ_OFFSET, ACK_REQ_MASK, ackReq);
    }

    public int psn() {
        return get24(ACK_REQ_OFFSET);
    }

    public Bth psn(int psn) {
        put24(ACK_REQ_OFFSET, psn);
        return this;
    }

    @Override
    public String toString() {
        return buffer == null ? "Bth[unwrapped]" : PacketDump.bth(this);
    }

    private int flags() {
        return buffer.get(offset + FLAGS_OFFSET) & 0xFF;
    }

    private Bth flag(int mask, boolean on) {
        return bit(FLAGS_OFFSET, mask, on);
    }

    private Bth bit(int byteOffset, int mask, boolean on) {
        int b = buffer.get(offset + byteOffset);
        buffer.put(offset + byteOffset, (byte) (on ? b | mask : b & ~mask));
        return this;
    }
}
