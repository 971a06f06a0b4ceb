package org.jrdma.bootstrap.tcp;

import java.util.function.Consumer;
import org.jrdma.bootstrap.AuthenticatingExchange;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.ConnInfoCodec;
import org.jrdma.bootstrap.ExchangeEvent.Phase;
import org.jrdma.bootstrap.ExchangeListener;

/**
 * A connected TCP exchange whose peer is authenticated as {@link TcpOptions#security} says. In
 * the secure modes the swap is in rc_pingpong's server order — the client writes first, the
 * server reads, lets the caller take its QP to RTS, then answers — and needs no "done": the
 * sealed or TLS channel already proves the messages whole.
 */
final class TcpSession implements AuthenticatingExchange.Session {
    private final Link link;
    private final Handshake.Role role;
    private final TcpOptions options;
    private final ExchangeListener events;
    private boolean used;
    private boolean closed;

    private TcpSession(Link link, Handshake.Role role, TcpOptions options, ExchangeListener events) {
        this.link = link;
        this.role = role;
        this.options = options;
        this.events = events;
    }

    /** Authenticates over {@code channel}, which this owns from now on: closed on failure. */
    static TcpSession open(MessageChannel channel, Handshake.Role role, TcpOptions options, ExchangeListener events) {
        try {
            Link link = switch (options.security()) {
                case TcpSecurity.Plain p -> channel;
                case TcpSecurity.Psk psk -> PskHandshake.run(channel, role, psk.key(), options.ioTimeout());
                case TcpSecurity.Tls tls -> TlsLink.handshake(channel, role, tls.context(), options.ioTimeout());
            };
            return new TcpSession(link, role, options, events);
        } catch (RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    @Override
    public java.net.InetAddress peerAddress() {
        return link.peerInetAddress();
    }

    @Override
    public ConnInfo exchange(ConnInfo local, ExchangeListener listener, Consumer<ConnInfo> beforeReply) {
        if (used) {
            throw new IllegalStateException("a session is good for one exchange");
        }
        used = true;
        if (options.security() instanceof TcpSecurity.Plain) {
            ConnInfo peer;
            try {
                peer = Handshake.run(link, role, local, options, listener);
            } finally {
                close();
            }
            beforeReply.accept(peer);
            return peer;
        }
        ConnInfoCodec codec = options.codec();
        byte[] mine = codec.encode(local);
        byte[] theirs = new byte[codec.size()];
        String what = "peer's " + codec.name() + " message";
        ConnInfo peer;
        // The channel is closed before the exchange returns and before the client's QP is
        // connected, as in the plain exchange; the server connects its QP before it answers.
        try {
            if (role == Handshake.Role.CLIENT) {
                link.writeAll(mine, options.ioTimeout(), "our " + codec.name() + " message");
                listener.emit(Phase.SENT, mine.length + " bytes");
                link.readExactly(theirs, options.ioTimeout(), what, codec::checkPrefix);
                peer = Handshake.checkBinding(codec.decode(theirs), link, options);
                listener.emit(Phase.RECEIVED, theirs.length + " bytes");
                close();
                beforeReply.accept(peer);
            } else {
                link.readExactly(theirs, options.ioTimeout(), what, codec::checkPrefix);
                peer = Handshake.checkBinding(codec.decode(theirs), link, options);
                beforeReply.accept(peer);
                link.writeAll(mine, options.ioTimeout(), "our " + codec.name() + " message");
                listener.emit(Phase.SENT, mine.length + " bytes");
                listener.emit(Phase.RECEIVED, theirs.length + " bytes");
            }
        } finally {
            close();
        }
        return peer;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            link.close();
            events.emit(Phase.CLOSED, "");
        }
    }
}
