package org.jrdma.verbs;

/** {@code enum ibv_wc_flags}: the bits of {@link WorkCompletion#wcFlags}. */
public final class WcFlags {
    /** {@code IBV_WC_GRH}: the receive buffer starts with the {@link Grh#BYTES}-byte GRH (UD, GSI). */
    public static final int GRH = 1;
    /** {@code IBV_WC_WITH_IMM}: the message carried immediate data, in {@link WorkCompletion#immData}. */
    public static final int WITH_IMM = 1 << 1;
    /** {@code IBV_WC_IP_CSUM_OK}: the device verified the packet's IP and TCP/UDP checksums. */
    public static final int IP_CSUM_OK = 1 << 2;
    /** {@code IBV_WC_WITH_INV}: a SEND_WITH_INV invalidated the rkey now in {@link WorkCompletion#immData}. */
    public static final int WITH_INV = 1 << 3;

    private WcFlags() {
    }
}
