package org.jrdma.cm.wire;

/** What Linux rdma_cm puts in the REQs it sends on RoCE (§7.8, §7.9). */
public final class CmDefaults {
    /** Remote and Local CM Response Timeout: 2^(20+12) ns ≈ 4.3 s (CMA_CM_RESPONSE_TIMEOUT). */
    public static final int CM_RESPONSE_TIMEOUT = 20;
    /** Max CM Retries of a REQ: 15 (CMA_MAX_CM_RETRIES). */
    public static final int MAX_CM_RETRIES = 15;
    /**
     * The RoCE path's packet lifetime (CMA_IBOE_PACKET_LIFETIME) in current kernels. Older ones used
     * 18: the rping capture's REQ has Local ACK Timeout 19 = {@code ackTimeout(15, 18)}.
     */
    public static final int PACKET_LIFETIME = 16;

    private CmDefaults() {
    }

    /**
     * The REQ's Local ACK Timeout as Linux computes it ({@code cm_ack_timeout}, §7.8) from the CA ACK
     * delay (rxe: 15) and the packet lifetime, both 5-bit exponents: roughly the larger of the ACK
     * delay and twice the lifetime (one more exponent), capped at 31.
     *
     * @param caAckDelay the CA's ACK delay exponent, 0..31
     * @param packetLifetime the path's packet lifetime exponent, 0..31
     * @return the Local ACK Timeout exponent, at most 31
     */
    public static int ackTimeout(int caAckDelay, int packetLifetime) {
        int t = packetLifetime + 1;
        if (t >= caAckDelay) {
            t += caAckDelay >= t - 1 ? 1 : 0;
        } else {
            t = caAckDelay + (t >= caAckDelay - 1 ? 1 : 0);
        }
        return Math.min(t, 31);
    }
}
