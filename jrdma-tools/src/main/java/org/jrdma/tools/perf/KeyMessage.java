package org.jrdma.tools.perf;

import java.util.Objects;
import org.jrdma.bootstrap.InvalidFieldException;
import org.jrdma.verbs.Gid;

/**
 * perftest's {@code struct pingpong_dest} as it travels (ROCEV2-FACTS §6.2): what one QP's peer
 * needs to connect to it and to reach its buffer.
 *
 * @param lid 16 bits; 0 on RoCE
 * @param outReads the sender's {@code -o}: READs/atomics it accepts in flight
 * @param qpn 24-bit QP number
 * @param psn 24-bit initial packet sequence number of the sender's send queue
 * @param rkey the remote key of the sender's buffer (unsigned 32 bits)
 * @param vaddr where the peer's WRITEs, READs and atomics go (unsigned 64 bits)
 * @param gid the sender's GID (the GID variant only)
 * @param srqn SRQ number (XRC/DC; 0 here, unsigned 32 bits)
 */
public record KeyMessage(int lid, int outReads, int qpn, int psn, int rkey, long vaddr, Gid gid, int srqn) {
    public KeyMessage {
        check("lid", lid, 0xFFFF);
        check("out_reads", outReads, 0xFFFF);
        check("qpn", qpn, 0xFFFFFF);
        check("psn", psn, 0xFFFFFF);
        Objects.requireNonNull(gid, "gid");
    }

    private static void check(String field, int value, int max) {
        if (value < 0 || value > max) {
            throw new InvalidFieldException(field, value + " is outside 0.." + max);
        }
    }
}
