package org.jrdma.soft.wire;

/**
 * The transport an opcode belongs to: bits 7..5 of the BTH opcode (ROCEV2-FACTS §1.3). A QP
 * accepts only its own transport's opcodes (§1.10 step 3).
 */
public enum Transport {
    RC, UC, RD, UD, CNP, RESERVED, MANUFACTURER;

    private static final Transport[] BY_BITS = {RC, UC, RD, UD, CNP, RESERVED, RESERVED, MANUFACTURER};

    /** The transport named by the top three bits of {@code opcode} (0..255). */
    public static Transport of(int opcode) {
        return BY_BITS[(opcode >>> 5) & 7];
    }

    /** The opcode byte's bits 7..5 for this transport, shifted into place; -1 for RESERVED. */
    public int opcodeBase() {
        return switch (this) {
            case RC -> 0x00;
            case UC -> 0x20;
            case RD -> 0x40;
            case UD -> 0x60;
            case CNP -> 0x80;
            case RESERVED -> -1;
            case MANUFACTURER -> 0xE0;
        };
    }
}
