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
        /**
         * Checks a prefix of the message.
         *
         * @param partial the bytes read so far
         * @param length how many of them are valid
         * @throws org.jrdma.bootstrap.MalformedMessageException to refuse them
         */
        void check(byte[] partial, int length);
    }

    /**
     * Writes all of {@code bytes} under one absolute deadline, or throws a typed BootstrapException.
     *
     * @param bytes the message
     * @param timeout the deadline for the whole write
     * @param what names the message in errors
     */
    void writeAll(byte[] bytes, Duration timeout, String what);

    /**
     * Fills {@code into} exactly under one absolute deadline, or throws a typed BootstrapException.
     *
     * @param into the buffer, filled whole
     * @param timeout the deadline for the whole read
     * @param what names the message in errors
     * @param check called on each prefix received, to refuse a wrong message early
     */
    void readExactly(byte[] into, Duration timeout, String what, PrefixCheck check);

    /**
     * The peer's address for messages, e.g. {@code 127.0.0.1:18515}.
     *
     * @return the text
     */
    String peerAddress();

    /**
     * The peer's IP address.
     *
     * @return the address, or null if it cannot be known
     */
    java.net.InetAddress peerInetAddress();

    @Override
    void close();
}
