package org.jrdma.soft.wire;

/**
 * Why a received datagram was dropped, one counter each. The wire layer decides the first group
 * ({@link RxPacket}, {@link IcrcVerifier}); the provider decides the rest once it has looked the
 * destination QP up (ROCEV2-FACTS §1.10). rxe drops all of these silently, and so do we: none of
 * them is answered with a NAK.
 */
public enum DropReason {
    /** Not dropped. */
    NONE("ok"),

    // --- decided by the wire layer, before any QP is looked up ---
    /** Shorter than a BTH, or than the opcode's headers plus the ICRC. */
    RUNT("runt"),
    /** BTH.TVer is not 0. */
    BAD_TVER("bad transport version"),
    /** Reserved or unimplemented opcode (RD, vendor, ...). */
    UNKNOWN_OPCODE("unknown opcode"),
    /** A known opcode the provider does not handle (CNP). */
    UNSUPPORTED_OPCODE("unsupported opcode"),
    /**
     * Lengths disagree with the opcode: negative payload once pad and ICRC are taken off, pad on
     * a FIRST/MIDDLE packet, or payload bytes on an opcode that carries none.
     */
    BAD_LENGTH("bad length"),
    /** The ICRC does not verify (§1.8). */
    BAD_ICRC("bad ICRC"),

    // --- decided by the provider ---
    /** No such QP, or QPN 0 (rxe drops those too). */
    UNKNOWN_QPN("unknown QPN"),
    /** The QP's state does not process this packet (requests need RTR/RTS, §1.10 step 4). */
    BAD_QP_STATE("bad QP state"),
    /** RC/UC packet not from the connected peer's address (§1.10 step 5). */
    WRONG_SOURCE("wrong source"),
    /** Opcode transport differs from the QP type (§1.10 step 3). */
    WRONG_TRANSPORT("wrong transport"),
    /** P_Key does not match the QP's (§1.10 step 6). */
    BAD_PKEY("bad P_Key"),
    /** UD DETH Q_Key does not match the QP's (§1.10 step 7). */
    BAD_QKEY("bad Q_Key"),
    /** The destination IP is not one of this device's addresses (§1.10 step 1). */
    WRONG_DESTINATION("wrong destination"),
    /**
     * RC/UC packet from the connected peer's address but not from the UDP source port strict
     * source checking pinned for the QP (SEC-12; see org.jrdma.soft.engine.SourceCheck).
     */
    WRONG_SOURCE_PORT("wrong source port");

    private final String description;

    DropReason(String description) {
        this.description = description;
    }

    /** Short human text for counters and logs. */
    public String description() {
        return description;
    }
}
