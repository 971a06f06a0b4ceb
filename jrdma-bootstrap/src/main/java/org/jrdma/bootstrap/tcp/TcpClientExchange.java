package org.jrdma.bootstrap.tcp;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.channels.SocketChannel;
import java.util.Objects;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.ExchangeEvent.Phase;
import org.jrdma.bootstrap.ExchangeIoException;
import org.jrdma.bootstrap.ExchangeListener;

/**
 * The active side: tries each resolved address in turn, as rc_pingpong's client walks the
 * getaddrinfo list, under one connect deadline for all of them together.
 */
public final class TcpClientExchange implements TcpExchange {
    private final String host;
    private final int port;
    private final TcpOptions options;

    TcpClientExchange(String host, int port, TcpOptions options) {
        this.host = Objects.requireNonNull(host, "host");
        if (port < 1 || port > 0xFFFF) {
            throw new IllegalArgumentException("port must be 1..65535, not " + port);
        }
        this.port = port;
        this.options = Objects.requireNonNull(options, "options");
    }

    @Override
    public boolean authenticates() {
        return !(options.security() instanceof TcpSecurity.Plain);
    }

    @Override
    public Session authenticate(ExchangeListener events) {
        MessageChannel channel = null;
        try {
            channel = connect();
            events.emit(Phase.CONNECTED, channel.peerAddress());
            return TcpSession.open(channel, Handshake.Role.CLIENT, options, events);
        } catch (RuntimeException e) {
            MessageChannel.closeQuietly(channel);
            events.emit(Phase.CLOSED, "");
            throw e;
        }
    }

    @Override
    public ConnInfo exchange(ConnInfo local, ExchangeListener events) {
        Objects.requireNonNull(local, "local");
        if (authenticates()) {
            try (Session session = authenticate(events)) {
                return session.exchange(local, events);
            }
        }
        MessageChannel channel = null;
        try {
            channel = connect();
            events.emit(Phase.CONNECTED, channel.peerAddress());
            return Handshake.run(channel, Handshake.Role.CLIENT, local, options, events);
        } finally {
            MessageChannel.closeQuietly(channel);
            events.emit(Phase.CLOSED, "");
        }
    }

    private MessageChannel connect() {
        InetAddress[] addresses;
        try {
            // Name resolution has no deadline of its own in the JDK; a literal address never waits.
            addresses = InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            throw new ExchangeIoException("resolve " + host, e);
        }
        long deadline = System.nanoTime() + options.ioTimeout().toNanos();
        long backoffNanos = REFUSED_BACKOFF_FIRST_NANOS;
        while (true) {
            Attempt attempt = tryEach(addresses, deadline);
            if (attempt.channel() != null) {
                return attempt.channel();
            }
            IOException failure = attempt.failure();
            // Refused everywhere: the server may not be listening *yet* (two processes started
            // together). Try again until the connect deadline, as a person would, rather than
            // failing on a race; anything other than a refusal fails at once.
            boolean refusedOnly = failure instanceof java.net.ConnectException
                    && java.util.Arrays.stream(failure.getSuppressed()).allMatch(e -> e instanceof java.net.ConnectException);
            long left = deadline - System.nanoTime();
            if (!refusedOnly || left <= backoffNanos) {
                throw new ExchangeIoException("connect to " + host + ":" + port, failure);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(backoffNanos);
            backoffNanos = Math.min(backoffNanos * 2, REFUSED_BACKOFF_MAX_NANOS);
        }
    }

    private static final long REFUSED_BACKOFF_FIRST_NANOS = 10_000_000L;
    private static final long REFUSED_BACKOFF_MAX_NANOS = 200_000_000L;

    /** The connected channel, or why every address failed. */
    private record Attempt(MessageChannel channel, IOException failure) {
    }

    /** One pass over the resolved addresses, in order. */
    private Attempt tryEach(InetAddress[] addresses, long deadline) {
        IOException failure = null;
        for (InetAddress address : addresses) {
            MessageChannel channel = null;
            try {
                channel = MessageChannel.of(SocketChannel.open());
                channel.connect(new InetSocketAddress(address, port), deadline, options.ioTimeout());
                return new Attempt(channel, null);
            } catch (IOException e) {
                MessageChannel.closeQuietly(channel);
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            } catch (RuntimeException e) {
                MessageChannel.closeQuietly(channel);
                throw e;
            }
        }
        return new Attempt(null, failure);
    }
}
