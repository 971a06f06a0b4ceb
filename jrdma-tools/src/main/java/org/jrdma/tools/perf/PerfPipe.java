package org.jrdma.tools.perf;

import java.time.Duration;
import org.jrdma.bootstrap.tcp.Link;

/**
 * What perftest's out-of-band messages travel on: a TCP connection ({@link PerfChannel}), or
 * with {@code -R} a SEND/RECV queue pair the connection manager connected ({@link CmPipe}).
 * Messages are fixed-size: each {@link #read} takes exactly one message of the given length.
 */
interface PerfPipe extends AutoCloseable {
    /** A message taken as it comes (checked once whole, if at all). */
    Link.PrefixCheck ANY = (b, n) -> { };

    /** Sends {@code bytes} as one message before the deadline. */
    void write(byte[] bytes, Duration timeout, String what);

    /** Fills {@code into} with the peer's next message, checking its bytes as they arrive. */
    void read(byte[] into, Duration timeout, String what, Link.PrefixCheck check);

    /**
     * Whether the peer has gone — closed the connection, or (-R) disconnected — looked at without
     * waiting and without taking a message: for a side that waits on its QPs alone during a run,
     * where nothing outstanding of its own would ever time out.
     */
    boolean peerClosed();

    /** Releases the pipe (idempotent); no error once the exchange has its result. */
    @Override
    void close();
}
