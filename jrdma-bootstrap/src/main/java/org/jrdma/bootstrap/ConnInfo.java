package org.jrdma.bootstrap;

import org.jrdma.verbs.Gid;

/**
 * What one side of an RC connection tells the other (rc_pingpong's {@code struct pingpong_dest}):
 * its LID, QP number, initial PSN and GID, and optionally a buffer the peer may reach with RDMA
 * WRITE, READ and atomics (the {@code rkey} and {@code vaddr} of perftest's {@code struct
 * pingpong_dest}). Every field is checked on construction (OOB-08), so a {@code ConnInfo} that
 * exists is safe to hand to {@code modify_qp}.
 *
 * <p>Only codecs that have fields for it carry the buffer ({@link PerftestKeyCodec}); the
 * rc_pingpong and seed codecs have none and refuse to encode a {@code ConnInfo} that has one,
 * rather than drop it unseen.
 *
 * @param lid  16-bit LID; 0 on RoCE
 * @param qpn  24-bit QP number, 2..0xFFFFFE: QP0 (SMI) and QP1 (GSI) are special and 0xFFFFFF is
 *             the multicast QPN, none of which an RC peer can be
 * @param psn  24-bit initial PSN; never masked (rxe masks silently, OOB-08 wants it refused)
 * @param gid  the GID; all-zero is allowed (rc_pingpong sends it when {@code -g} is not given, for
 *             IB without a GRH), multicast ff00::/8 is not a unicast peer
 * @param buffer the buffer this side exposes to the peer's RDMA, or null when it exposes none
 */
public record ConnInfo(int lid, int qpn, int psn, Gid gid, RemoteBuffer buffer) {
    /** The largest LID, 0xFFFF (16 bits). */
    public static final int MAX_LID = 0xFFFF;
    /** The smallest QPN an RC peer can have: 0 is the SMI's QP0 and 1 the GSI's QP1. */
    public static final int MIN_QPN = 2;
    /** The multicast QPN, 0xFFFFFF, which no RC peer can be. */
    public static final int MULTICAST_QPN = 0xFFFFFF;
    /** The largest PSN, 0xFFFFFF (24 bits). */
    public static final int MAX_PSN = 0xFFFFFF;

    /**
     * Checks every field.
     *
     * @throws InvalidFieldException naming the field ({@code lid}, {@code qpn}, {@code psn} or
     *     {@code gid}) that is out of range, missing or multicast
     */
    public ConnInfo {
        if (lid < 0 || lid > MAX_LID) {
            throw new InvalidFieldException("lid", hex(lid) + " is not a 16-bit LID (0..0xffff)");
        }
        checkQpn(qpn);
        if (psn < 0 || psn > MAX_PSN) {
            throw new InvalidFieldException("psn", hex(psn) + " is not a 24-bit PSN (0..0xffffff)");
        }
        if (gid == null) {
            throw new InvalidFieldException("gid", "missing");
        }
        if (gid.isMulticast()) {
            throw new InvalidFieldException("gid", gid + " is multicast (ff00::/8), not a unicast peer");
        }
    }

    /**
     * Connection info that exposes no buffer: what rc_pingpong sends.
     *
     * @param lid 16-bit LID; 0 on RoCE
     * @param qpn 24-bit QP number, 2..0xFFFFFE
     * @param psn 24-bit initial PSN
     * @param gid the GID, not multicast
     * @throws InvalidFieldException naming the field that is out of range, missing or multicast
     */
    public ConnInfo(int lid, int qpn, int psn, Gid gid) {
        this(lid, qpn, psn, gid, null);
    }

    /**
     * A copy that exposes {@code exposed} (or, with null, no buffer).
     *
     * @param exposed the buffer the peer may reach, or null
     * @return the copy
     */
    public ConnInfo withBuffer(RemoteBuffer exposed) {
        return new ConnInfo(lid, qpn, psn, gid, exposed);
    }

    /**
     * For a codec with no field for a buffer: refuses to drop one silently.
     *
     * @throws IllegalArgumentException if {@code info} has a buffer
     */
    static void requireNoBuffer(ConnInfo info, String codec) {
        if (info.buffer() != null) {
            throw new IllegalArgumentException(codec + " has no field for a buffer's rkey and address, and this side"
                    + " exposes one (RcOptions.exposing): use a codec that carries it, PerftestKeyCodec"
                    + " (TcpOptions.perftest())");
        }
    }

    private static void checkQpn(int qpn) {
        String problem = switch (qpn) {
            case 0 -> "0x000000 is QP0, reserved for the SMI";
            case 1 -> "0x000001 is QP1, reserved for the GSI (CM MADs)";
            case MULTICAST_QPN -> "0xffffff is the multicast QPN";
            default -> qpn < 0 || qpn > MULTICAST_QPN ? hex(qpn) + " is not a 24-bit QPN" : null;
        };
        if (problem != null) {
            throw new InvalidFieldException("qpn", problem);
        }
    }

    /** Unsigned hex, so a u32 read from the wire prints as the peer sent it. */
    private static String hex(int value) {
        return "0x" + Integer.toHexString(value);
    }

    /**
     * rc_pingpong's address line without its "local address:" prefix:
     * {@code LID 0x0000, QPN 0x000012, PSN 0xe3de62, GID ::ffff:10.77.0.3}, and with a buffer
     * its address ({@code , VAddr 0x00007f0000001000, RKey hidden}). PSNs are printed as
     * rc_pingpong prints them; the rkey never is (see {@link RemoteBuffer#toString}).
     */
    @Override
    public String toString() {
        String line = String.format("LID 0x%04x, QPN 0x%06x, PSN 0x%06x, GID %s", lid, qpn, psn, gid);
        return buffer == null ? line : line + ", " + buffer;
    }
}
