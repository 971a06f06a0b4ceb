package org.jrdma.tools.perf;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import org.jrdma.bootstrap.ExchangeIoException;
import org.jrdma.bootstrap.ExchangeStep;
import org.jrdma.bootstrap.ExchangeTimeoutException;
import org.jrdma.bootstrap.tcp.MessageChannel;

/**
 * The TCP connection perftest's out-of-band exchange runs on (ROCEV2-FACTS §6.1): the server
 * accepts exactly one client and closes its listening socket; the client connects. Every
 * connect, accept, write and read waits against an absolute deadline: the connection is
 * jrdma-bootstrap's {@link MessageChannel} (a blocking socket has no write timeout and SO_TIMEOUT
 * restarts on every byte), and the accept here is non-blocking with a selector. Unlike rc_pingpong's exchange the socket stays open for perftest's
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

    private final MessageChannel channel;

    private PerfChannel(MessageChannel channel) {
        this.channel = channel;
    }

    private static PerfChannel wrap(SocketChannel channel) {
        return new PerfChannel(MessageChannel.of(channel)); // closes the socket if it fails
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
                    return wrap(peer);
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
                    c = wrap(SocketChannel.open());
                    c.channel.connect(target, deadline, timeout);
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

    /** Writes all of {@code bytes} before the deadline; the first write() normally carries the whole message. */
    @Override
    public void write(byte[] bytes, Duration timeout, String what) {
        channel.writeAll(bytes, timeout, what);
    }

    /**
     * Fills {@code into} exactly under one deadline for the whole message, checking each prefix
     * as it arrives; never reads past it, so the peer's next message stays in the socket.
     */
    @Override
    public void read(byte[] into, Duration timeout, String what, PrefixCheck check) {
        channel.readExactly(into, timeout, what, check::check);
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
        channel.close();
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
