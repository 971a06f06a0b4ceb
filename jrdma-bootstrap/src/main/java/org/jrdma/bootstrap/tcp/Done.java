package org.jrdma.bootstrap.tcp;

import java.util.Arrays;
import org.jrdma.bootstrap.Excerpt;
import org.jrdma.bootstrap.MalformedMessageException;

/**
 * The last out-of-band message of rc_pingpong (ROCEV2-FACTS §5.1 step 4) and of perftest
 * ({@code ctx_close_connection}): {@code "done"} with its NUL, 5 bytes. The bootstrap's TCP
 * exchange, jrdma pingpong's server exchange and jrdma perf all end with it.
 */
public final class Done {
    private static final byte[] BYTES = {'d', 'o', 'n', 'e', 0};
    /** 5: {@code "done"} and its NUL. */
    public static final int LENGTH = BYTES.length;

    private Done() {
    }

    /**
     * The message, to write.
     *
     * @return a fresh copy of the 5 bytes
     */
    public static byte[] bytes() {
        return BYTES.clone();
    }

    /**
     * A {@link Link.PrefixCheck} for the peer's: anything else is refused at the first byte that
     * differs.
     *
     * @param partial the bytes read so far
     * @param length how many of them are valid
     * @throws org.jrdma.bootstrap.MalformedMessageException (field {@code terminator}) if they are
     *     not a prefix of {@code "done\0"}
     */
    public static void check(byte[] partial, int length) {
        if (!Arrays.equals(partial, 0, length, BYTES, 0, length)) {
            throw new MalformedMessageException("terminator", "expected \"done\\x00\", got " + Excerpt.of(partial, 0, length));
        }
    }
}
