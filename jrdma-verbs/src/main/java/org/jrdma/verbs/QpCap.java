package org.jrdma.verbs;

/** {@code struct ibv_qp_cap}: queue sizes and limits asked for at create, granted in query. */
public record QpCap(int maxSendWr, int maxRecvWr, int maxSendSge, int maxRecvSge, int maxInlineData) {
    public QpCap {
        if (maxSendWr < 0 || maxRecvWr < 0 || maxSendSge < 0 || maxRecvSge < 0 || maxInlineData < 0) {
            throw new IllegalArgumentException("QP capabilities cannot be negative: " + this);
        }
    }
}
