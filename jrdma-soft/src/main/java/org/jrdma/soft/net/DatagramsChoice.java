package org.jrdma.soft.net;

import java.util.Locale;

/**
 * Which datagram path a soft device's socket takes, and why: {@code nio} ({@link UdpDatagrams},
 * a DatagramChannel, portable), {@code native} ({@link NativeDatagrams}, libc through FFM;
 * Linux with native access), or {@code auto} (native when this JVM can, else nio). Kept as a
 * value so that a tool ({@code jrdma devinfo}) can show the choice and its reason.
 *
 * @param setting what was asked for: auto, native or nio
 * @param path what a device opens: native or nio
 * @param reason why, in words
 * @param factory opens that path's socket
 */
public record DatagramsChoice(String setting, String path, String reason, DatagramsFactory factory) {
    /** System property: {@code auto} (the default), {@code native} or {@code nio}. */
    public static final String PROPERTY = "jrdma.soft.datagrams";

    /**
     * What {@value #PROPERTY} asks for; unset means {@code auto}. The native door is the default
     * where it opens because only it has the batches (GSO runs in one sendmmsg, GRO reads in one
     * recvmmsg) that the engine's passes use; a JVM without it (another OS, native access not
     * granted to org.jrdma.soft) takes the DatagramChannel and says why ({@code jrdma devinfo}).
     */
    public static DatagramsChoice configured() {
        String v = System.getProperty(PROPERTY);
        return v == null || v.isBlank() ? auto() : of(v);
    }

    /** {@code auto}, {@code native} or {@code nio} (any case); else an IllegalArgumentException naming all three. */
    public static DatagramsChoice of(String setting) {
        return switch (setting.trim().toLowerCase(Locale.ROOT)) {
            case "nio" -> new DatagramsChoice("nio", "nio", "asked for (DatagramChannel)", DatagramsFactory.UDP);
            case "native" -> NativeDatagrams.isAvailable()
                    ? new DatagramsChoice("native", "native", "asked for (libc through FFM)", DatagramsFactory.NATIVE)
                    // asked for by name: opening says why it cannot, rather than quietly using nio
                    : new DatagramsChoice("native", "native", "asked for, but unavailable: "
                            + NativeDatagrams.unavailableReason(), DatagramsFactory.NATIVE);
            case "auto" -> auto();
            default -> throw new IllegalArgumentException(
                    PROPERTY + " must be auto, native or nio, not '" + setting + "'");
        };
    }

    /** Native when available here, else nio, with the reason. */
    public static DatagramsChoice auto() {
        String why = NativeDatagrams.unavailableReason();
        return why == null
                ? new DatagramsChoice("auto", "native", "available (Linux, native access enabled)", DatagramsFactory.NATIVE)
                : new DatagramsChoice("auto", "nio", "native unavailable: " + why, DatagramsFactory.UDP);
    }
}
