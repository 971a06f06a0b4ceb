package org.jrdma.bootstrap.tcp;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;
import org.jrdma.bootstrap.ExchangeEvent.Phase;
import org.jrdma.bootstrap.ExchangeIoException;
import org.jrdma.bootstrap.ExchangeListener;
import org.jrdma.bootstrap.ExchangeStep;
import org.jrdma.bootstrap.ExchangeTimeoutException;
import org.jrdma.bootstrap.PeerClosedException;
import org.jrdma.bootstrap.Retrying;

/**
 * One non-blocking TCP connection with a selector, so that connect, write and read each wait
 * against an absolute deadline (a blocking {@code Socket} has no write timeout, and SO_TIMEOUT
 * restarts on every byte, which is exactly what a slowloris peer exploits, OOB-04).
 */
public final class MessageChannel implements Link {

    /** Room for what {@link #peerClosed} reads ahead; a perftest message is at most 108 bytes. */
    private static final int AHEAD_BYTES = 4096;

    private final SocketChannel channel;
    private final Selector selector;
    private final SelectionKey key;
    /** What {@link #peerClosed} read while looking (position = bytes held), handed out first by {@link #readExactly}. */
    private final ByteBuffer ahead = ByteBuffer.allocate(AHEAD_BYTES);
    private boolean peerEnded;

    private MessageChannel(SocketChannel channel, Selector selector) throws IOException {
        this.channel = channel;
        this.selector = selector;
        channel.configureBlocking(false);
        // rc_pingpong and perftest read each message with one read() and no loop, so every
        // message must leave in one segment: one write and no Nagle delay (ROCEV2-FACTS §8.7).
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        this.key = channel.register(selector, 0);
    }

    /**
     * A message channel over a connected socket; takes ownership of {@code channel}: it is closed
     * if this fails.
     *
     * @param channel a connected socket channel; made non-blocking, with TCP_NODELAY
     * @return the message channel
     * @throws org.jrdma.bootstrap.ExchangeIoException if the channel cannot be set up
     */
    public static MessageChannel of(SocketChannel channel) {
        Selector selector = null;
        try {
            selector = Selector.open();
            return new MessageChannel(channel, selector);
        } catch (IOException e) {
            closeQuietly(selector);
            closeQuietly(channel);
            throw new ExchangeIoException("set up the TCP channel", e);
        }
    }

    private static final long REFUSED_BACKOFF_FIRST_NANOS = 10_000_000L;
    private static final long REFUSED_BACKOFF_MAX_NANOS = 200_000_000L;

    /**
     * Connects to the first address of {@code host} that accepts, within {@code timeout}. Refused
     * everywhere: the server may not be listening <em>yet</em> (two processes started together),
     * so it is tried again with a growing pause until the deadline, as a person would, rather
     * than failing on a race; anything other than a refusal fails at once. The first refusal
     * that will be retried is told to {@code events} once ({@link Phase#RETRYING}: where, and
     * until when), so nobody waits in silence; the final failure says how long it tried.
     *
     * @param host the server's name or address, without a port
     * @param port the server's TCP port
     * @param timeout the deadline for the whole connect, retries included
     * @param events told of the first retried refusal
     * @return the connected channel
     * @throws org.jrdma.bootstrap.ExchangeTimeoutException if nothing accepted before the deadline
     * @throws org.jrdma.bootstrap.ExchangeIoException if the host does not resolve or a connect fails
     */
    public static MessageChannel connectTo(String host, int port, Duration timeout, ExchangeListener events) {
        InetAddress[] addresses = HostName.resolve(host);
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        long backoffNanos = REFUSED_BACKOFF_FIRST_NANOS;
        boolean told = false;
        while (true) {
            IOException failure = null;
            for (InetAddress address : addresses) {
                MessageChannel channel = null;
                try {
                    channel = of(SocketChannel.open());
                    channel.connect(new InetSocketAddress(address, port), deadline, timeout);
                    return channel;
                } catch (IOException e) {
                    closeQuietly(channel);
                    if (failure == null) {
                        failure = e;
                    } else {
                        failure.addSuppressed(e);
                    }
                } catch (RuntimeException e) {
                    closeQuietly(channel);
                    throw e;
                }
            }
            boolean refusedOnly = failure instanceof ConnectException
                    && Arrays.stream(failure.getSuppressed()).allMatch(e -> e instanceof ConnectException);
            if (!refusedOnly) {
                throw new ExchangeIoException("connect to " + HostName.withPort(host, port), failure);
            }
            if (deadline - System.nanoTime() <= backoffNanos) {
                throw new ExchangeIoException(String.format(Locale.ROOT, "connect to %s: refused (tried for %.1f s; is the server"
                        + " running, on port %d?)", HostName.withPort(host, port), (System.nanoTime() - start) / 1e9, port),
                        failure);
            }
            if (!told) {
                told = true;
                events.emit(Phase.RETRYING, HostName.withPort(host, port) + " refused the connection: no server listens there"
                        + " yet; " + Retrying.until(deadline, timeout));
            }
            LockSupport.parkNanos(backoffNanos);
            failIfInterrupted(ExchangeStep.CONNECT);
            backoffNanos = Math.min(backoffNanos * 2, REFUSED_BACKOFF_MAX_NANOS);
        }
    }

    /**
     * Listens on {@code bind} as rc_pingpong and perftest do (SO_REUSEADDR, backlog 1: one client,
     * and the rest are refused by the kernel); a port that another program holds is said so.
     *
     * @param bind the local address and port (0 for an ephemeral one)
     * @return the listening channel
     * @throws org.jrdma.bootstrap.ExchangeIoException if it cannot bind
     */
    public static ServerSocketChannel listen(InetSocketAddress bind) {
        ServerSocketChannel server = null;
        try {
            server = ServerSocketChannel.open();
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            server.bind(bind, 1);
            return server;
        } catch (IOException e) {
            closeQuietly(server);
            String where = bind.getAddress().isAnyLocalAddress() ? "TCP port " + bind.getPort()
                    : "TCP " + HostName.withPort(bind);
            throw new ExchangeIoException("listen on " + where
                    + (e instanceof java.net.BindException ? " (another program listens there: choose another -p)" : ""), e);
        }
    }

    /**
     * Accepts one peer on {@code server} within {@code timeout}, waiting on a selector.
     *
     * @param server a listening channel
     * @param timeout how long to wait for the peer
     * @return the accepted connection
     * @throws org.jrdma.bootstrap.ExchangeTimeoutException if no peer came in time
     * @throws org.jrdma.bootstrap.ExchangeIoException if accepting fails
     */
    public static SocketChannel acceptOne(ServerSocketChannel server, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Selector selector = Selector.open()) {
            server.configureBlocking(false);
            server.register(selector, SelectionKey.OP_ACCEPT);
            while (true) {
                SocketChannel peer = server.accept();
                if (peer != null) {
                    return peer;
                }
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    throw new ExchangeTimeoutException(ExchangeStep.ACCEPT, timeout,
                            "waiting for a peer on " + listening(server));
                }
                selector.selectedKeys().clear();
                selector.select(Math.max(1, (remaining + 999_999) / 1_000_000));
                failIfInterrupted(ExchangeStep.ACCEPT);
            }
        } catch (IOException e) {
            throw new ExchangeIoException("accept on " + listening(server), e);
        }
    }

    /** "TCP port 18515 (every local address)" or "TCP 127.0.0.1:18515", not Java's "/[0:0:0:0:0:0:0:0]:18515". */
    private static String listening(ServerSocketChannel server) {
        InetAddress a = server.socket().getInetAddress();
        int port = server.socket().getLocalPort();
        return a == null || a.isAnyLocalAddress() ? "TCP port " + port + " (every local address)"
                : "TCP " + HostName.withPort(a, port);
    }

    /**
     * Connects before {@code deadlineNanos}; IOException means "try the next address".
     *
     * @param address the address to connect to
     * @param deadlineNanos the absolute deadline, in {@link System#nanoTime()} terms
     * @param timeout the whole step's timeout, for the error message
     * @throws IOException if this address refused or failed
     * @throws org.jrdma.bootstrap.ExchangeTimeoutException if the deadline passes
     */
    public void connect(InetSocketAddress address, long deadlineNanos, Duration timeout) throws IOException {
        if (channel.connect(address)) {
            return;
        }
        while (true) {
            await(SelectionKey.OP_CONNECT, deadlineNanos, ExchangeStep.CONNECT, timeout, "to " + HostName.withPort(address));
            if (channel.finishConnect()) {
                return;
            }
        }
    }

    /** Writes all of {@code bytes}; the first write() carries the whole message. */
    @Override
    public void writeAll(byte[] bytes, Duration timeout, String what) {
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
     * Whether the peer has closed its end — as a killed process's kernel does at once — looked at
     * without waiting, for a side that has nothing to read for a while (perf's receiver during a
     * run). What arrived meanwhile is kept for the next {@link #readExactly}, so the look never
     * takes a message from the protocol; each call that finds room is one read system call.
     *
     * @return true once the peer's end of the stream has been seen
     */
    public boolean peerClosed() {
        if (!peerEnded && ahead.hasRemaining()) {
            try {
                peerEnded = channel.read(ahead) < 0;
            } catch (IOException e) {
                peerEnded = true; // reset by the peer: gone as surely; the next read says how
            }
        }
        return peerEnded;
    }

    /** How many bytes {@link #peerClosed} has read ahead and holds (for tests). */
    int bytesReadAhead() {
        return ahead.position();
    }

    /**
     * Fills {@code into} exactly, looping over short reads, under one absolute deadline for the
     * whole message; never reads past it, so what the peer sends next stays in the socket (or in
     * what {@link #peerClosed} read ahead).
     */
    @Override
    public void readExactly(byte[] into, Duration timeout, String what, PrefixCheck check) {
        long deadline = System.nanoTime() + timeout.toNanos();
        ByteBuffer in = ByteBuffer.wrap(into);
        if (ahead.position() > 0) {
            ahead.flip();
            int take = Math.min(ahead.remaining(), into.length);
            ahead.get(into, 0, take);
            ahead.compact();
            in.position(take);
            check.check(into, take);
        }
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

    @Override
    public java.net.InetAddress peerInetAddress() {
        try {
            return channel.getRemoteAddress() instanceof InetSocketAddress a ? a.getAddress() : null;
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public String peerAddress() {
        try {
            return channel.getRemoteAddress() instanceof InetSocketAddress a ? HostName.withPort(a) : "?";
        } catch (IOException e) {
            return "?";
        }
    }

    private void await(int ops, long deadlineNanos, ExchangeStep step, Duration timeout, String detail) throws IOException {
        key.interestOps(ops);
        while (true) {
            long remaining = deadlineNanos - System.nanoTime();
            if (remaining <= 0) {
                throw new ExchangeTimeoutException(step, timeout, detail);
            }
            selector.selectedKeys().clear();
            // Round up: select(0) would mean "forever".
            selector.select(Math.max(1, (remaining + 999_999) / 1_000_000));
            failIfInterrupted(step);
            if (selector.selectedKeys().contains(key)) {
                key.interestOps(0);
                return;
            }
        }
    }

    /** An interrupt wakes select() at once; without this check the loop would spin to the deadline. */
    static void failIfInterrupted(ExchangeStep step) {
        if (Thread.currentThread().isInterrupted()) {
            throw new ExchangeIoException(step.label(), new InterruptedIOException("interrupted"));
        }
    }

    /**
     * Hands the socket over to blocking I/O (for the TLS layer, TlsLink): the selector is closed
     * and this object must not be used again; the channel is the caller's to close.
     */
    SocketChannel toBlocking() throws IOException {
        if (ahead.position() > 0) {
            throw new IllegalStateException("bytes read ahead by peerClosed() would be lost"); // TLS never looks
        }
        key.cancel();
        selector.close();
        channel.configureBlocking(true);
        return channel;
    }

    /** Closing the selector first deregisters the key, so the channel's close releases the socket at once. */
    @Override
    public void close() {
        closeQuietly(selector);
        closeQuietly(channel);
    }

    static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception ignored) {
            // Closing is best effort: the exchange already has its result or its error.
        }
    }
}
