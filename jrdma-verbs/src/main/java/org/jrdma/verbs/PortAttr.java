package org.jrdma.verbs;

/** {@code struct ibv_port_attr}. On RoCE the LID is 0 and the link layer is Ethernet. */
public record PortAttr(
        PortState state,
        Mtu maxMtu,
        Mtu activeMtu,
        int gidTblLen,
        int lid,
        int smLid,
        String linkLayer,
        int maxMsgSize) {
}
