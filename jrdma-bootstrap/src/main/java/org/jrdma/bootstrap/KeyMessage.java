package org.jrdma.bootstrap;

import java.util.Objects;
import org.jrdma.verbs.Gid;

/**
 * perftest's {@code struct pingpong_dest} as it travels (ROCEV2-FACTS §6.2): what one QP's peer
 * needs to connect to it and to reach its buffer. {@link PerftestKeyCodec} reads and writes it;
 * {@link #toConnInfo} and {@link #of} convert to and from the {@link ConnInfo} an
 * {@link Exchange} swaps.
 *
 * <p>The checks here are the message's field widths only, as perftest's tools need them (a
 * synchronisation message repeats the same fields); {@link #toConnInfo} adds ConnInfo's
 * (no QP0/QP1, no multicast GID).
 *
 * @param lid 16 bits; 0 on RoCE
 * @param outReads the sender's {@code -o}: READs/atomics it accepts in flight, 16 bits
 * @param qpn 24-bit QP number
 * @param psn 24-bit initial packet sequence number of the sender's send queue
 * @param rkey the remote key of the sender's buffer (unsigned 32 bits)
 * @param vaddr where the peer's WRITEs, READs and atomics go (unsigned 64 bits)
 * @param gid the sender's GID (all-zero in the no-GID variant)
 * @param srqn SRQ number (XRC/DC; 0 otherwise, unsigned 32 bits)
 */
public record KeyMessage(int lid, int outReads, int qpn, int psn, int rkey, long vaddr, Gid gid, int srqn) {
    /**
     * Checks the fields' widths.
     *
     * @throws InvalidFieldException naming {@code lid}, {@code out_reads}, {@code qpn} or
     *     {@code psn} when it is wider than its field
     * @throws NullPointerException if {@code gid} is null
     */
    public KeyMessage {
        check("lid", lid, 0xFFFF);
        check("out_reads", outReads, 0xFFFF);
        check("qpn", qpn, 0xFFFFFF);
        check("psn", psn, 0xFFFFFF);
        Objects.requireNonNull(gid, "gid");
    }

    /**
     * The key message that says what {@code info} says: its buffer's rkey and address, or zeros
     * when it exposes none (perftest sends its zeros-initialised fields then too); SRQ number 0.
     *
     * @param info the connection info
     * @param outReads the READs/atomics this side accepts in flight (its {@code max_dest_rd_atomic})
     * @return the key message
     * @throws InvalidFieldException if {@code outReads} is not 0..0xFFFF
     */
    public static KeyMessage of(ConnInfo info, int outReads) {
        RemoteBuffer b = info.buffer();
        return new KeyMessage(info.lid(), outReads, info.qpn(), info.psn(), b == null ? 0 : b.rkey(),
                b == null ? 0 : b.address(), info.gid(), 0);
    }

    /**
     * The connection info this message carries; rkey 0 with address 0 means no buffer (what a
     * side sends that exposes none). {@code out_reads} and {@code srqn} have no place in it.
     *
     * @return the connection info
     * @throws InvalidFieldException naming the field ConnInfo refuses (QP0, QP1, the multicast
     *     QPN, a multicast GID)
     */
    public ConnInfo toConnInfo() {
        RemoteBuffer buffer = rkey == 0 && vaddr == 0 ? null : new RemoteBuffer(vaddr, rkey);
        return new ConnInfo(lid, qpn, psn, gid, buffer);
    }

    private static void check(String field, int value, int max) {
        if (value < 0 || value > max) {
            throw new InvalidFieldException(field, value + " is outside 0.." + max);
        }
    }
}
