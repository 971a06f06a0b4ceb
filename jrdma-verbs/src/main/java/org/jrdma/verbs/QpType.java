package org.jrdma.verbs;

/** {@code enum ibv_qp_type}. */
public enum QpType {
    RC(2), UC(3), UD(4), RAW_PACKET(8), XRC_SEND(9), XRC_RECV(10);

    private final int value;

    QpType(int value) {
        this.value = value;
    }

    public int value() {
        return value;
    }
}
