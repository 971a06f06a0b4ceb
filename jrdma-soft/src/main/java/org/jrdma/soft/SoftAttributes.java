package org.jrdma.soft;

import org.jrdma.verbs.DeviceAttr;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.PortAttr;
import org.jrdma.verbs.PortState;

/** What query_device and query_port report for a soft device: its limits, and port 1 on Ethernet. */
final class SoftAttributes {
    private SoftAttributes() {
    }

    static DeviceAttr device(long guid) {
        return new DeviceAttr("jrdma-soft 0.1", guid, guid, SoftLimits.MAX_MR_SIZE, 0, 0, 0,
                SoftLimits.MAX_QP, SoftLimits.MAX_QP_WR, SoftLimits.MAX_SGE, SoftLimits.MAX_CQ, SoftLimits.MAX_CQE,
                SoftLimits.MAX_MR, SoftLimits.MAX_PD, SoftLimits.MAX_QP_RD_ATOM, SoftLimits.MAX_QP_RD_ATOM,
                SoftLimits.MAX_INLINE_DATA, SoftLimits.MAX_MSG_SIZE, SoftLimits.LOCAL_CA_ACK_DELAY, 1);
    }

    static PortAttr port(boolean active, Mtu activeMtu) {
        return new PortAttr(active ? PortState.ACTIVE : PortState.DOWN, activeMtu, activeMtu, 1, 0, 0, "Ethernet",
                SoftLimits.MAX_MSG_SIZE);
    }
}
