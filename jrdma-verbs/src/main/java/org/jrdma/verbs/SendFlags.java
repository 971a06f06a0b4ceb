package org.jrdma.verbs;

/** {@code enum ibv_send_flags}. */
public final class SendFlags {
    public static final int FENCE = 1;
    public static final int SIGNALED = 1 << 1;
    public static final int SOLICITED = 1 << 2;
    public static final int INLINE = 1 << 3;
    public static final int IP_CSUM = 1 << 4;

    private SendFlags() {
    }
}
