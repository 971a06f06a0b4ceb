package org.jrdma.tools.perf;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import org.jrdma.bootstrap.ExchangeIoException;
import org.jrdma.bootstrap.ExchangeStep;
import org.jrdma.bootstrap.ExchangeTimeoutException;
import org.jrdma.bootstrap.PeerClosedException;

/**
 * The TCP connection perftest's out-of-band exchange runs on (ROCEV2-FACTS §6.1): the server
 * accepts exactly one client and closes its listening socket; the client connects. Non-blocking
 * with a selector, so every connect, accept, write and read waits against an absolute deadline
 * (as jrdma-bootstrap's channel does: a blocking socket has no write timeout and SO_TIMEOUT
 * restarts on every byte). Unlike rc_pingpong's exchange the socket stays open for perftest's
 * synchronisations and result exchange until {@link PerfExchange#close}. Public because
 * {@code jrdma pingpong}'s server exchange ({@code PingpongServerExchange}) runs on it too.
 */
public final class PerfChannel implements PerfPipe, AutoCloseable {
    /** Check a prefix of a message as it arrives; throw to refuse it early. */
    @FunctionalInterface
    public interface PrefixCheck {
        void check(byte[] partial, int length);
    }

    static final PrefixCheck ANY = (b, n) -> { };

    private static final long REFUSED_BACKOFF_FIRST_NANOS = 10_000_000L;
    private static final long REFUSED_BACKOFF_MAX_NANOS = 200_000_000L;

    private final SocketChannel channel;
    private final Selector selector;
    private final SelectionKey key;

    private PerfChannel(SocketChannel channel) throws IOException {
        this.channel = channel;
        this.selector = Selector.open();
        try {
            channel.configureBlocking(false);
            // perftest reads each message with one read() and no loop: each must leave in one
            // segment, so one write per message and no Nagle delay (ROCEV2-FACTS §8.7).
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            this.key = channel.register(selector, 0);
        } catch (IOException | RuntimeException e) {
            selector.close();
            throw e;
        }
    }

    private static PerfChannel wrap(SocketChannel channel, String what) {
        try {
            return new PerfChannel(channel);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new ExchangeIoException(what, e);
        }
    }

    /** Listens on every local address (SO_REUSEADDR, backlog 1), accepts one peer before the deadline, stops listening. */
    public static PerfChannel accept(int port, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        InetSocketAddress bind = new InetSocketAddress(port);
        try (ServerSocketChannel server = ServerSocketChannel.open(); Selector sel = Selector.open()) {
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            server.bind(bind, 1);
            server.configureBlocking(false);
            server.register(sel, SelectionKey.OP_ACCEPT);
            while (true) {
                SocketChannel peer = server.accept();
                if (peer != null) {
                    return wrap(peer, "set up the accepted connection");
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new ExchangeTimeoutException(ExchangeStep.ACCEPT, timeout, "waiting for a client on port " + port);
                }
                sel.selectedKeys().clear();
                sel.select(millisRoundedUp(left));
                failIfInterrupted(ExchangeStep.ACCEPT);
            }
        } catch (IOException e) {
            throw new ExchangeIoException("listen on " + bind, e);
        }
    }

    /**
     * Connects to the first address of {@code host} that accepts. A refusal everywhere is tried
     * again until the deadline: the server may not be listening yet when both start together.
     */
    static PerfChannel connect(String host, int port, Duration timeout) {
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            throw new ExchangeIoException("resolve " + host, e);
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        long backoff = REFUSED_BACKOFF_FIRST_NANOS;
        while (true) {
            IOException failure = null;
            boolean refusedOnly = true;
            for (InetAddress address : addresses) {
                InetSocketAddress target = new InetSocketAddress(address, port);
                PerfChannel c = null;
                try {
                    c = wrap(SocketChannel.open(), "open a socket");
                    c.finishConnect(target, deadline, timeout);
                    return c;
                } catch (IOException e) {
                    closeQuietly(c);
                    refusedOnly &= e instanceof ConnectException;
                    if (failure == null) {
                        failure = e;
                    } else {
                        failure.addSuppressed(e);
                    }
                } catch (RuntimeException e) {
                    closeQuietly(c);
                    throw e;
                }
            }
            long left = deadline - System.nanoTime();
            if (!refusedOnly || left <= backoff) {
                throw new ExchangeIoException("connect to " + host + ":" + port, failure);
            }
            LockSupport.parkNanos(backoff);
            failIfInterrupted(ExchangeStep.CONNECT);
            backoff = Math.min(2 * backoff, REFUSED_BACKOFF_MAX_NANOS);
        }
    }

    private void finishConnect(InetSocketAddress target, long deadline, Duration timeout) throws IOException {
        if (channel.connect(target)) {
            return;
        }
        while (true) {
            await(SelectionKey.OP_CONNECT, deadline, ExchangeStep.CONNECT, timeout, "to " + target);
            if (channel.finishConnect()) {
                return;
            }
        }
    }

    /** Writes all of {@code bytes} before the deadline; the first write() normally carries the whole message. */
    @Override
    public void write(byte[] bytes, Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        ByteBuffer out = ByteBuffer.wrap(bytes);
        try {
            while (out.hasRemaining()) {
                if (channel.write(out) == 0) {
                    await(SelectionKey.OP_WRITE, deadline, ExchangeStep.WRITE, timeout,
                            "after " + out.position() + " of " + bytes.length + " bytes of " + what);
                }
            }
        } catch (IOException e) {
            throw new ExchangeIoException("write " + what, e);
        }
    }

    /**
     * Fills {@code into} exactly under one deadline for the whole message, checking each prefix
     * as it arrives; never reads past it, so the peer's next message stays in the socket.
     */
    @Override
    public void read(byte[] into, Duration timeout, String what, PrefixCheck check) {
        long deadline = System.nanoTime() + timeout.toNanos();
        ByteBuffer in = ByteBuffer.wrap(into);
        try {
            while (in.hasRemaining()) {
                int n = channel.read(in);
                if (n < 0) {
                    throw new PeerClosedException("read " + what, in.position(), into.length);
                } else if (n > 0) {
                    check.check(into, in.position());
                } else {
                    await(SelectionKey.OP_READ, deadline, ExchangeStep.READ, timeout,
                            "after " + in.position() + " of " + into.length + " bytes of " + what);
                }
            }
        } catch (IOException e) {
            throw new ExchangeIoException("read " + what, e);
        }
    }

    private void await(int ops, long deadline, ExchangeStep step, Duration timeout, String detail) throws IOException {
        key.interestOps(ops);
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new ExchangeTimeoutException(step, timeout, detail);
            }
            selector.selectedKeys().clear();
            selector.select(millisRoundedUp(left));
            failIfInterrupted(step);
            if (selector.selectedKeys().contains(key)) {
                key.interestOps(0);
                return;
            }
        }
    }

    /** select(0) would mean "forever". */
    private static long millisRoundedUp(long nanos) {
        return Math.max(1, (nanos + 999_999) / 1_000_000);
    }

    private static void failIfInterrupted(ExchangeStep step) {
        if (Thread.currentThread().isInterrupted()) {
            throw new ExchangeIoException(step.label(), new InterruptedIOException("interrupted"));
        }
    }

    @Override
    public void close() {
        closeQuietly(selector);
        closeQuietly(channel);
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception ignored) {
                // best effort: the exchange already has its result or its error
            }
        }
    }
}
