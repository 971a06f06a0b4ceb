package org.jrdma.bootstrap.tcp;

import java.time.Duration;
import java.util.Objects;
import org.jrdma.bootstrap.ConnInfoCodec;
import org.jrdma.bootstrap.PingpongTextCodec;
import org.jrdma.bootstrap.SeedBinaryCodec;

/**
 * How a {@link TcpExchange} talks.
 *
 * @param codec          the fixed-size message both sides send
 * @param doneTerminator after the messages, the client writes {@code "done\0"} (5 bytes) and the
 *                       server reads exactly that, as rc_pingpong does (ROCEV2-FACTS §5.1 step 4)
 * @param ioTimeout      deadline of each of connect, write and read; absolute over the whole step
 *                       and never extended by progress (OOB-04)
 * @param acceptTimeout  how long a server waits for its one peer; separate from {@code ioTimeout}
 *                       because a tool's server waits for a human to start the client, while a
 *                       connected peer that stalls should be cut off quickly
 */
public record TcpOptions(ConnInfoCodec codec, boolean doneTerminator, Duration ioTimeout, Duration acceptTimeout) {
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    public TcpOptions {
        Objects.requireNonNull(codec, "codec");
        requirePositive(ioTimeout, "ioTimeout");
        requirePositive(acceptTimeout, "acceptTimeout");
    }

    /** rc_pingpong-compatible: 52-byte text message, then "done", 10 s deadlines. */
    public static TcpOptions rcPingpong() {
        return new TcpOptions(PingpongTextCodec.INSTANCE, true, DEFAULT_TIMEOUT, DEFAULT_TIMEOUT);
    }

    /** The seed's 28-byte binary message, no terminator, 10 s deadlines. */
    public static TcpOptions seedBinary() {
        return new TcpOptions(SeedBinaryCodec.INSTANCE, false, DEFAULT_TIMEOUT, DEFAULT_TIMEOUT);
    }

    /** The same deadline for connect, accept, write and read. */
    public TcpOptions withTimeout(Duration timeout) {
        return new TcpOptions(codec, doneTerminator, timeout, timeout);
    }

    public TcpOptions withIoTimeout(Duration timeout) {
        return new TcpOptions(codec, doneTerminator, timeout, acceptTimeout);
    }

    public TcpOptions withAcceptTimeout(Duration timeout) {
        return new TcpOptions(codec, doneTerminator, ioTimeout, timeout);
    }

    private static void requirePositive(Duration d, String name) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be a positive duration, not " + d);
        }
    }
}
