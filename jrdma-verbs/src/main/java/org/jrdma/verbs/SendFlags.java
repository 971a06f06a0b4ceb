package org.jrdma.verbs;

/** {@code enum ibv_send_flags}: the bits of {@link SendWorkRequest#sendFlags}. */
public final class SendFlags {
    /** {@code IBV_SEND_FENCE}: the WR starts only after earlier RDMA READs and atomics completed. */
    public static final int FENCE = 1;
    /** {@code IBV_SEND_SIGNALED}: the WR generates a completion (always so on an sq_sig_all QP). */
    public static final int SIGNALED = 1 << 1;
    /** {@code IBV_SEND_SOLICITED}: sets the solicited-event bit, waking a receiver armed for solicited only. */
    public static final int SOLICITED = 1 << 2;
    /** {@code IBV_SEND_INLINE}: the data is copied at post time (up to max_inline_data bytes); lkeys are ignored. */
    public static final int INLINE = 1 << 3;
    /** {@code IBV_SEND_IP_CSUM}: the device computes the IP and TCP/UDP checksums (UD, RAW_PACKET). */
    public static final int IP_CSUM = 1 << 4;

    private SendFlags() {
    }
}
