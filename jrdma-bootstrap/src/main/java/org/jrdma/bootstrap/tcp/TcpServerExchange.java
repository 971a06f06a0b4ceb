package org.jrdma.bootstrap.tcp;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.util.Objects;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.ExchangeEvent.Phase;
import org.jrdma.bootstrap.ExchangeIoException;
import org.jrdma.bootstrap.ExchangeListener;

/**
 * The passive side: binds (SO_REUSEADDR, backlog 1), accepts exactly one peer and closes the
 * listening socket right away, as rc_pingpong's server does; a second connection attempt is
 * refused, so nothing is allocated per extra caller (OOB-05). Single use.
 */
public final class TcpServerExchange implements TcpExchange, AutoCloseable {
    private final InetSocketAddress bindAddress;
    private final TcpOptions options;
    private ServerSocketChannel listener;
    private int boundPort = -1;
    private boolean used;

    TcpServerExchange(InetSocketAddress bindAddress, TcpOptions options) {
        this.bindAddress = Objects.requireNonNull(bindAddress, "bindAddress");
        this.options = Objects.requireNonNull(options, "options");
    }

    /**
     * Binds and listens now, so the port is known (and a client may connect) before
     * {@link #exchange} is called. Idempotent; {@link #exchange} binds if this was not called.
     *
     * @return this exchange
     * @throws IllegalStateException if the exchange was already used
     * @throws org.jrdma.bootstrap.ExchangeIoException if it cannot bind
     */
    public synchronized TcpServerExchange bind() {
        if (used) {
            throw new IllegalStateException("this server exchange was already used");
        }
        if (listener != null) {
            return this;
        }
        ServerSocketChannel channel = MessageChannel.listen(bindAddress);
        try {
            channel.configureBlocking(false);
        } catch (IOException e) {
            MessageChannel.closeQuietly(channel);
            throw new ExchangeIoException("listen on TCP " + HostName.withPort(bindAddress), e);
        }
        listener = channel;
        boundPort = channel.socket().getLocalPort();
        return this;
    }

    /**
     * The bound port (the ephemeral one when constructed with port 0); binds first if needed.
     * Still known after the exchange.
     *
     * @return the TCP port
     */
    public synchronized int localPort() {
        if (boundPort < 0) {
            bind();
        }
        return boundPort;
    }

    @Override
    public boolean authenticates() {
        return !(options.security() instanceof TcpSecurity.Plain);
    }

    @Override
    public Session authenticate(ExchangeListener events) {
        ServerSocketChannel server = null;
        MessageChannel channel = null;
        try {
            server = takeListener();
            events.emit(Phase.LISTENING, String.valueOf(server.socket().getLocalSocketAddress()));
            channel = MessageChannel.of(MessageChannel.acceptOne(server, options.acceptTimeout()));
            MessageChannel.closeQuietly(server);
            events.emit(Phase.CONNECTED, channel.peerAddress());
            MessageChannel accepted = channel;
            channel = null; // TcpSession.open owns it now, and closes it if authentication fails
            return TcpSession.open(accepted, Handshake.Role.SERVER, options, events);
        } catch (RuntimeException e) {
            MessageChannel.closeQuietly(server);
            MessageChannel.closeQuietly(channel);
            events.emit(Phase.CLOSED, "");
            throw e;
        }
    }

    private synchronized ServerSocketChannel takeListener() {
        bind();
        used = true;
        ServerSocketChannel server = listener;
        listener = null;
        return server;
    }

    @Override
    public ConnInfo exchange(ConnInfo local, ExchangeListener events) {
        Objects.requireNonNull(local, "local");
        if (authenticates()) {
            try (Session session = authenticate(events)) {
                return session.exchange(local, events);
            }
        }
        ServerSocketChannel server = null;
        MessageChannel channel = null;
        try {
            server = takeListener();
            events.emit(Phase.LISTENING, String.valueOf(server.socket().getLocalSocketAddress()));
            channel = MessageChannel.of(MessageChannel.acceptOne(server, options.acceptTimeout()));
            MessageChannel.closeQuietly(server);
            events.emit(Phase.CONNECTED, channel.peerAddress());
            return Handshake.run(channel, Handshake.Role.SERVER, local, options, events);
        } finally {
            MessageChannel.closeQuietly(server);
            MessageChannel.closeQuietly(channel);
            events.emit(Phase.CLOSED, "");
        }
    }

    /** Releases the listening socket if {@link #exchange} never ran. */
    @Override
    public synchronized void close() {
        used = true;
        MessageChannel.closeQuietly(listener);
        listener = null;
    }
}
