package org.jrdma.soft.engine;

import java.util.Locale;

/**
 * Which source a connected RC/UC QP accepts packets from (RELIABILITY-SECURITY SEC-11/12).
 *
 * <p>The peer's IP address is always checked (rxe {@code check_addr}). The UDP source port is
 * not in the address vector: RoCEv2 lets each sender pick it for ECMP entropy (rxe derives a
 * fixed one per QP from the QPNs; NICs likewise keep one per QP; this provider sends from its
 * device port). So {@link #STRICT} learns it: the first packet from the peer's address that the
 * QP accepts as progress — a request at the expected PSN that executes, or a response that
 * acknowledges something outstanding — pins its source port, and from then on packets from any
 * other port of that address are dropped as {@code wrong source port}. An attacker on the
 * peer's host (NeVerMore: an unprivileged process binds its own port on the same IP) then needs
 * the exact port as well as the QPN and PSN. A new path (modify to RTR with an AH) unpins.
 *
 * <p>{@link #COMPAT} checks the address only, for peers that vary the source port within one
 * QP (multipath NICs, some load-balancing setups). Its risk: any process on the peer's host
 * that learns the QPN and PSN can inject (SEC-12).
 */
public enum SourceCheck {
    /** Peer address and pinned source port (the default). */
    STRICT,
    /** Peer address only. */
    COMPAT;

    /** System property: {@code strict} (default) or {@code compat}. */
    public static final String PROPERTY = "jrdma.soft.sourceCheck";
    /** Environment variable read when the property is unset. */
    public static final String ENV = "JRDMA_SOURCE_CHECK";

    /** The check the property (or else the environment) asks for; {@link #STRICT} when neither is set. */
    public static SourceCheck configured() {
        String v = System.getProperty(PROPERTY);
        if (v == null || v.isBlank()) {
            v = System.getenv(ENV);
        }
        return v == null || v.isBlank() ? STRICT : parse(v);
    }

    /** {@code strict} or {@code compat} (any case); anything else is an IllegalArgumentException naming both. */
    public static SourceCheck parse(String v) {
        return switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "strict" -> STRICT;
            case "compat" -> COMPAT;
            default -> throw new IllegalArgumentException(
                    PROPERTY + "/" + ENV + " must be strict or compat, not '" + v + "'");
        };
    }
}
