package org.jrdma.verbs;

/**
 * {@code struct ibv_port_attr}, as ibv_query_port reports it. On RoCE the LID is 0 and the link
 * layer is Ethernet.
 *
 * @param state      state: the logical port state
 * @param maxMtu     max_mtu: the largest MTU the port supports
 * @param activeMtu  active_mtu: the largest MTU in use on the link now
 * @param gidTblLen  gid_tbl_len: entries in the GID table
 * @param lid        lid: the port's base LID (0 on RoCE)
 * @param smLid      sm_lid: the subnet manager's LID (0 on RoCE)
 * @param linkLayer  link_layer: {@code Ethernet} (RoCE) or {@code InfiniBand}
 * @param maxMsgSize max_msg_sz: the largest message, in bytes
 */
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
