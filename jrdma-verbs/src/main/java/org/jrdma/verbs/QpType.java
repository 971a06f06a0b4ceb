package org.jrdma.verbs;

/**
 * {@code enum ibv_qp_type}, plus GSI with the kernel's {@code IB_QPT_GSI} value: the General
 * Services QP, number {@link #GSI_QP_NUM}, through which the IB connection manager sends its
 * MADs. It is a UD QP with a fixed number and the controlled Q_Key {@link Qkey#QP1}; a device
 * has at most one.
 */
public enum QpType {
    GSI(1), RC(2), UC(3), UD(4), RAW_PACKET(8), XRC_SEND(9), XRC_RECV(10);

    /** The GSI QP's number on every port (IBA: QP1). */
    public static final int GSI_QP_NUM = 1;

    private final int value;

    QpType(int value) {
        this.value = value;
    }

    public int value() {
        return value;
    }

    /** UD and GSI QPs carry datagrams: SEND only, one packet each, with a DETH. */
    public boolean isDatagram() {
        return this == UD || this == GSI;
    }
}
