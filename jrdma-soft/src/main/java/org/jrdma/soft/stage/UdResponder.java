package org.jrdma.soft.stage;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
 * <p>A UDP socket does not see the sender's IP header, so the one written here is rebuilt:
 * addresses, lengths and protocol as received, the identification and flags the ICRC check
 * recovered, TOS 0 and TTL 64 (both masked by the ICRC, so not recoverable).
 */
public final class UdResponder {
    /** The GRH area in front of every UD receive buffer. */
    public static final int GRH_BYTES = org.jrdma.verbs.Grh.BYTES;

    private final ByteBuffer grh = ByteBuffer.allocate(GRH_BYTES).order(ByteOrder.BIG_ENDIAN);
    /** UD's rows of the error table send nothing back, so no packet writer. */
    private final ResponderErrors errors = new ResponderErrors(null);
    private final MemorySegment grhBytes = MemorySegment.ofBuffer(grh);

    /**
     * Delivers one datagram. {@code srcIp}/{@code dstIp} are the IPv4 addresses, {@code ipId}
     * and {@code ipFlags} what the ICRC check recovered, {@code udpLength} the UDP payload size.
     * Returns why the packet was refused, for the device's drop counters: {@link DropReason#BAD_QKEY}
     * for a Q_Key violation (on the GSI QP: anything but 0x80010000, rxe check_keys), else NONE —
     * a datagram that finds no receive is counted on the QP only, as it was a valid packet.
     */
    public DropReason onDatagram(TransportQp qp, RxPacket pkt, MemorySegment data, int srcIp, int dstIp, int ipId,
            int ipFlags, int udpLength) {
        return deliver(qp, pkt, data, null, null, srcIp, dstIp, ipId, ipFlags, udpLength);
    }

    /**
     * As {@link #onDatagram} on an IPv6 device: the 40-byte GRH area holds the IPv6 header
     * (version 6, traffic class and flow label 0, payload length, next header UDP, hop limit 64,
     * the two 16-byte addresses), as rxe writes it for RoCEv2 over IPv6.
     */
    public DropReason onDatagramIpv6(TransportQp qp, RxPacket pkt, MemorySegment data, byte[] srcIp, byte[] dstIp,
            int udpLength) {
        return deliver(qp, pkt, data, srcIp, dstIp, 0, 0, 0, 0, udpLength);
    }

    private DropReason deliver(TransportQp qp, RxPacket pkt, MemorySegment data, byte[] srcIpv6, byte[] dstIpv6,
            int srcIp, int dstIp, int ipId, int ipFlags, int udpLength) {
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
        if (srcIpv6 != null) {
            writeGrhIpv6(srcIpv6, dstIpv6, udpLength);
        } else {
            writeGrh(srcIp, dstIp, ipId, ipFlags, udpLength);
        }
        w.gather.copyIn(grhBytes, 0, 0, GRH_BYTES);
        if (payload > 0) {
            w.gather.copyIn(data, pkt.payloadOffset(), GRH_BYTES, payload);
        }
        qp.completeRecv(WcStatus.SUCCESS, GRH_BYTES + payload, withImm, imm, pkt.bth().se(), WcOpcode.RECV,
                pkt.deth().srcQp());
        return DropReason.NONE;
    }

    private void writeGrhIpv6(byte[] srcIp, byte[] dstIp, int udpLength) {
        grh.clear();
        grh.putInt(0, 0x60000000).putShort(4, (short) (8 + udpLength)).put(6, (byte) 17).put(7, (byte) 64)
                .put(8, srcIp).put(24, dstIp);
    }

    private void writeGrh(int srcIp, int dstIp, int ipId, int ipFlags, int udpLength) {
        grh.clear();
        for (int i = 0; i < 20; i++) {
            grh.put(i, (byte) 0);
        }
        int ip = 20;
        grh.put(ip, (byte) 0x45).put(ip + 1, (byte) 0).putShort(ip + 2, (short) (20 + 8 + udpLength))
                .putShort(ip + 4, (short) ipId).putShort(ip + 6, (short) ipFlags).put(ip + 8, (byte) 64)
                .put(ip + 9, (byte) 17).putShort(ip + 10, (short) 0).putInt(ip + 12, srcIp).putInt(ip + 16, dstIp);
        int sum = 0;
        for (int i = 0; i < 20; i += 2) {
            sum += grh.getShort(ip + i) & 0xFFFF;
        }
        sum = (sum & 0xFFFF) + (sum >>> 16);
        sum = (sum & 0xFFFF) + (sum >>> 16);
        grh.putShort(ip + 10, (short) ~sum);
    }
}
