package org.jrdma.tools.perf;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;
import java.util.function.Consumer;
import org.jrdma.bootstrap.ExchangeIoException;
import org.jrdma.bootstrap.ExchangeListener;
import org.jrdma.bootstrap.tcp.Link;
import org.jrdma.bootstrap.tcp.MessageChannel;

/**
 * The TCP connection perftest's out-of-band exchange runs on (ROCEV2-FACTS §6.1): the server
 * accepts exactly one client and closes its listening socket; the client connects. Every
 * connect, accept, write and read waits against an absolute deadline: the connection, its
 * connect (refusals retried) and the accept are jrdma-bootstrap's {@link MessageChannel} (a
 * blocking socket has no write timeout and SO_TIMEOUT restarts on every byte). Unlike rc_pingpong's exchange the socket stays open for perftest's
 * synchronisations and result exchange until {@link PerfExchange#close}.
 */
final class PerfChannel implements PerfPipe {
    private final MessageChannel channel;

    private PerfChannel(MessageChannel channel) {
        this.channel = channel;
    }

    /** Listens on every local address (SO_REUSEADDR, backlog 1), accepts one peer before the deadline, stops listening. */
    static PerfChannel accept(int port, Duration timeout) {
        try (ServerSocketChannel server = MessageChannel.listen(new InetSocketAddress(port))) {
            return new PerfChannel(MessageChannel.of(MessageChannel.acceptOne(server, timeout)));
        } catch (IOException e) {
            throw new ExchangeIoException("stop listening on TCP port " + port, e);
        }
    }

    /**
     * Connects to the first address of {@code host} that accepts. A refusal everywhere is tried
     * again until the deadline — the server may not be listening yet when both start together —
     * and said once to {@code notices}.
     */
    static PerfChannel connect(String host, int port, Duration timeout, Consumer<String> notices) {
        return new PerfChannel(MessageChannel.connectTo(host, port, timeout, ExchangeListener.retrying(notices)));
    }

    /** {@return the peer's address, as the socket has it; null when it cannot say} */
    java.net.InetAddress peerAddress() {
        return channel.peerInetAddress();
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
    public void read(byte[] into, Duration timeout, String what, Link.PrefixCheck check) {
        channel.readExactly(into, timeout, what, check);
    }

    @Override
    public boolean peerClosed() {
        return channel.peerClosed(); // a killed process's kernel closes its socket at once
    }

    @Override
    public void close() {
        channel.close();
    }
}
