package org.jrdma.verbs;

/**
 * {@code enum ibv_qp_type}, plus GSI with the kernel's {@code IB_QPT_GSI} value: the General
 * Services QP, number {@link #GSI_QP_NUM}, through which the IB connection manager sends its
 * MADs. It is a UD QP with a fixed number and the controlled Q_Key {@link Qkey#QP1}; a device
 * has at most one.
 */
public enum QpType {
    /** The General Services QP, QP1 (the kernel's {@code IB_QPT_GSI}). */
    GSI(1),
    /** {@code IBV_QPT_RC}: reliable connected: acknowledged, ordered, with RDMA and atomics. */
    RC(2),
    /** {@code IBV_QPT_UC}: unreliable connected: SEND and RDMA WRITE, no ACKs or retransmission. */
    UC(3),
    /** {@code IBV_QPT_UD}: unreliable datagram: one-packet SENDs to any UD QP, addressed per WR. */
    UD(4),
    /** {@code IBV_QPT_RAW_PACKET}: raw Ethernet frames. */
    RAW_PACKET(8),
    /** {@code IBV_QPT_XRC_SEND}: the sending side of an XRC connection. */
    XRC_SEND(9),
    /** {@code IBV_QPT_XRC_RECV}: the receiving side of an XRC connection. */
    XRC_RECV(10);

    /** The GSI QP's number on every port (IBA: QP1). */
    public static final int GSI_QP_NUM = 1;

    private final int value;

    QpType(int value) {
        this.value = value;
    }

    /** {@return the {@code IBV_QPT_*} value (for GSI, {@code IB_QPT_GSI})} */
    public int value() {
        return value;
    }

    /**
     * UD and GSI QPs carry datagrams: SEND only, one packet each, with a DETH.
     *
     * @return true for UD and GSI
     */
    public boolean isDatagram() {
        return this == UD || this == GSI;
    }
}
