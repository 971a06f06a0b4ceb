package org.jrdma.bootstrap.tcp;

import java.time.Duration;

/**
 * A connected byte channel whose every step has an absolute deadline: the plain socket
 * ({@link MessageChannel}), the pre-shared-key channel ({@link PskLink}) or TLS ({@link TlsLink}).
 * Public for jrdma-tools, which uses a {@link MessageChannel} directly twice: perftest's channel
 * keeps its TCP connection open for the whole run, and pingpong's server exchange answers in
 * rdma-core's order (after its QP is connected).
 */
public interface Link extends AutoCloseable {
    /** Checks the bytes received so far; throws to refuse them early (OOB-06). */
    @FunctionalInterface
    interface PrefixCheck {
        void check(byte[] partial, int length);
    }

    void writeAll(byte[] bytes, Duration timeout, String what);

    /** Fills {@code into} exactly under one absolute deadline, or throws a typed BootstrapException. */
    void readExactly(byte[] into, Duration timeout, String what, PrefixCheck check);

    String peerAddress();

    /** The peer's IP address, or null if it cannot be known. */
    java.net.InetAddress peerInetAddress();

    @Override
    void close();
}
