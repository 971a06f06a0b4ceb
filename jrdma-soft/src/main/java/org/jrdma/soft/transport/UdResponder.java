package org.jrdma.soft.transport;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.jrdma.soft.net.RoceEndpoint;
import org.jrdma.soft.wire.DropReason;
import org.jrdma.soft.wire.RxPacket;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WcStatus;

/**
 * The receive side of UD and of the GSI QP (rxe_resp.c for UD QPs): no PSN, no ACK, no RNR — a datagram either
 * lands in the next posted receive or is dropped and counted (no receive, Q_Key mismatch); one
 * that does not fit its receive completes it with LOC_LEN_ERR. Each receive buffer starts with the 40-byte GRH area: for IPv4, 20 zero
 * bytes then the IPv4 header (ROCEV2-FACTS §3.7); byte_len counts those 40 bytes, src_qp is the
 * DETH's source QP, and the GRH flag is set.
 *
 * <p>A UDP socket does not see the sender's IP header, so the one written here is rebuilt by the
 * source endpoint ({@link RoceEndpoint#writeGrh}): addresses, lengths and protocol as received,
 * the identification and flags the ICRC check recovered, TOS 0 and TTL 64 (both masked by the
 * ICRC, so not recoverable); for IPv6 the IPv6 header, as rxe writes it.
 */
public final class UdResponder {
    /** The GRH area in front of every UD receive buffer. */
    public static final int GRH_BYTES = org.jrdma.verbs.Grh.BYTES;

    private final ByteBuffer grh = ByteBuffer.allocate(GRH_BYTES).order(ByteOrder.BIG_ENDIAN);
    /** UD's rows of the error table send nothing back, so no packet writer. */
    private final ResponderErrors errors = new ResponderErrors(null);
    private final MemorySegment grhBytes = MemorySegment.ofBuffer(grh);

    /**
     * Delivers one datagram from {@code source} to {@code destination} (this device's endpoint).
     * {@code ipId} and {@code ipFlags} are what the ICRC check recovered (IPv4 only), {@code udpLength}
     * the UDP payload size.
     * Returns why the packet was refused, for the device's drop counters: {@link DropReason#BAD_QKEY}
     * for a Q_Key violation (on the GSI QP: anything but 0x80010000, rxe check_keys), else NONE —
     * a datagram that finds no receive is counted on the QP only, as it was a valid packet.
     */
    public DropReason onDatagram(TransportQp qp, RxPacket pkt, MemorySegment data, RoceEndpoint source,
            RoceEndpoint destination, int ipId, int ipFlags, int udpLength) {
        if (!qp.state.receives()) {
            return DropReason.BAD_QP_STATE;
        }
        if (pkt.deth().qkey() != qp.attr.qkey) {
            errors.apply(qp, ResponderOutcome.QKEY_VIOLATION, 0); // IBA: a Q_Key violation is silently dropped
            return DropReason.BAD_QKEY;
        }
        if (!qp.takeReceive()) {
            errors.apply(qp, ResponderOutcome.RNR, 0);
            return DropReason.NONE;
        }
        RecvWqe w = qp.current;
        int payload = pkt.payloadLength();
        boolean withImm = pkt.opcode().hasImmediate();
        int imm = withImm ? pkt.immDt().immediate() : 0;
        if (w.postError != null || !w.gather.stillValid()) {
            errors.apply(qp, ResponderOutcome.MALFORMED_WQE, 0);
            return DropReason.NONE;
        }
        if (GRH_BYTES + (long) payload > w.gather.totalLength()) {
            // The datagram does not fit: the receive completes with a local length error and
            // the QP carries on (IBA for UD; rxe drops it without a word).
            errors.apply(qp, ResponderOutcome.RECV_TOO_SHORT, 0);
            return DropReason.NONE;
        }
        source.writeGrh(grh, destination, ipId, ipFlags, udpLength);
        w.gather.copyIn(grhBytes, 0, 0, GRH_BYTES);
        if (payload > 0) {
            w.gather.copyIn(data, pkt.payloadOffset(), GRH_BYTES, payload);
        }
        qp.completeRecv(WcStatus.SUCCESS, GRH_BYTES + payload, withImm, imm, pkt.bth().se(), WcOpcode.RECV,
                pkt.deth().srcQp());
        return DropReason.NONE;
    }
}
