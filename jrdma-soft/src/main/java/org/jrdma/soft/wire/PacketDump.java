package org.jrdma.soft.wire;

/**
 * One-line descriptions of packets for logs and test failures, in the spirit of tshark's
 * summary line: {@code RC_SEND_ONLY qp=0x000012 psn=0x000100 ack pad=3 payload=5}. Allocates;
 * not for the hot path. Keys and addresses (rkey, VA, Q_Key) are left out on purpose: they are
 * never logged (DESIGN "Secure by default").
 */
public final class PacketDump {
    private PacketDump() {
    }

    /** Opcode name, destination QP, PSN and flags of a BTH. */
    public static String bth(Bth bth) {
        return appendBth(new StringBuilder(64), bth).toString();
    }

    public static StringBuilder appendBth(StringBuilder out, Bth bth) {
        out.append(OpcodeTable.get(bth.opcode()).name())
                .append(" qp=0x").append(hex6(bth.destQp()))
                .append(" psn=0x").append(hex6(bth.psn()));
        if (bth.ackReq()) {
            out.append(" ack");
        }
        if (bth.se()) {
            out.append(" se");
        }
        if (bth.becn()) {
            out.append(" becn");
        }
        if (bth.fecn()) {
            out.append(" fecn");
        }
        if (bth.padCount() != 0) {
            out.append(" pad=").append(bth.padCount());
        }
        return out;
    }

    /** The BTH summary plus payload length and the AETH syndrome/MSN, or the drop reason. */
    public static String describe(RxPacket packet) {
        if (packet.buffer() == null) {
            return "RxPacket[unwrapped]";
        }
        StringBuilder out = new StringBuilder(96);
        if (packet.length() < Bth.LENGTH) {
            return out.append("runt of ").append(packet.length()).append(" bytes").toString();
        }
        appendBth(out, packet.bth());
        if (!packet.isValid()) {
            return out.append(" dropped: ").append(packet.status().description()).toString();
        }
        if (packet.opcode().hasPayload()) {
            out.append(" payload=").append(packet.payloadLength());
        }
        if (packet.opcode().has(ExtHeader.AETH)) {
            Aeth aeth = packet.aeth();
            out.append(" syndrome=0x").append(Integer.toHexString(aeth.syndrome()))
                    .append(" msn=").append(aeth.msn());
        }
        return out.toString();
    }

    private static String hex6(int value) {
        String hex = Integer.toHexString(value);
        return "000000".substring(hex.length()) + hex;
    }
}
