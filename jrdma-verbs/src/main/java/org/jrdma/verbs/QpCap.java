package org.jrdma.verbs;

/**
 * {@code struct ibv_qp_cap}: queue sizes and limits asked for at create, granted in query.
 *
 * @param maxSendWr     max_send_wr: send WRs outstanding at once
 * @param maxRecvWr     max_recv_wr: receive WRs outstanding at once (unused with an SRQ)
 * @param maxSendSge    max_send_sge: SGEs per send WR
 * @param maxRecvSge    max_recv_sge: SGEs per receive WR
 * @param maxInlineData max_inline_data: the largest {@link SendFlags#INLINE} send, in bytes
 */
public record QpCap(int maxSendWr, int maxRecvWr, int maxSendSge, int maxRecvSge, int maxInlineData) {
    /**
     * Checks the values.
     *
     * @throws IllegalArgumentException when any value is negative
     */
    public QpCap {
        if (maxSendWr < 0 || maxRecvWr < 0 || maxSendSge < 0 || maxRecvSge < 0 || maxInlineData < 0) {
            throw new IllegalArgumentException("QP capabilities cannot be negative: " + this);
        }
    }
}
