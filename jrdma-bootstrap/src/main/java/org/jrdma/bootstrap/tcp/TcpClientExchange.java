package org.jrdma.bootstrap.tcp;

import java.util.Objects;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.ExchangeEvent.Phase;
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
        this.host = HostName.check(Objects.requireNonNull(host, "host")); // before any device is opened
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
            channel = connect(events);
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
            channel = connect(events);
            events.emit(Phase.CONNECTED, channel.peerAddress());
            return Handshake.run(channel, Handshake.Role.CLIENT, local, options, events);
        } finally {
            MessageChannel.closeQuietly(channel);
            events.emit(Phase.CLOSED, "");
        }
    }

    private MessageChannel connect(ExchangeListener events) {
        return MessageChannel.connectTo(host, port, options.ioTimeout(), events);
    }
}
