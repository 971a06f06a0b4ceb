package org.jrdma.bootstrap;

import org.jrdma.verbs.Mtu;

/**
 * Path MTU from outside input (config file, command line). {@link Mtu#fromBytes} throws a
 * {@code VerbsException}; here a bad value is a {@link MalformedMessageException} naming the
 * field {@code mtu}, like every other bootstrap field (OOB-08: MTU ∉ {256…4096}).
 */
public final class Mtus {
    /** The field name a bad MTU is reported under. */
    public static final String FIELD = "mtu";

    private Mtus() {
    }

    /**
     * The path MTU of a byte count.
     *
     * @param bytes 256, 512, 1024, 2048 or 4096
     * @return the MTU
     * @throws MalformedMessageException for any other count
     */
    public static Mtu of(int bytes) {
        for (Mtu m : Mtu.values()) {
            if (m.bytes() == bytes) {
                return m;
            }
        }
        throw new MalformedMessageException(FIELD, bytes + " is not a path MTU: must be 256, 512, 1024, 2048 or 4096");
    }

    /**
     * A decimal byte count as rc_pingpong's {@code -m} takes it: digits only, no sign, no spaces.
     *
     * @param text the count, e.g. {@code "1024"}
     * @return the MTU
     * @throws MalformedMessageException if it is missing, not decimal or not a path MTU
     */
    public static Mtu parse(String text) {
        if (text == null || text.isEmpty() || text.length() > 5 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new MalformedMessageException(FIELD, (text == null ? "missing" : Excerpt.of(text))
                    + " is not a path MTU: must be 256, 512, 1024, 2048 or 4096");
        }
        return of(Integer.parseInt(text));
    }
}
