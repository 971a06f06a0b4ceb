package org.jrdma.bootstrap.tcp;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.jrdma.bootstrap.AuthenticatingExchange;

/**
 * The default out-of-band channel: TCP, rc_pingpong style (ROCEV2-FACTS §5.1). The server
 * accepts exactly one peer; the client connects to it. Each side writes its message, reads the
 * peer's, and closes every socket before {@link #exchange} returns. With a pre-shared key or
 * TLS ({@link TcpOptions#security}) the peer is authenticated first (README "Authenticated exchange").
 */
public sealed interface TcpExchange extends AuthenticatingExchange permits TcpServerExchange, TcpClientExchange {
    /** rc_pingpong's and perftest's default port. */
    int DEFAULT_PORT = 18515;

    /**
     * A server on every local address. Port 0 picks an ephemeral port: call
     * {@link TcpServerExchange#bind()} to learn it.
     *
     * @param port the TCP port, or 0
     * @param options how to talk
     * @return the server exchange, not yet bound
     */
    static TcpServerExchange server(int port, TcpOptions options) {
        return new TcpServerExchange(new InetSocketAddress(port), options);
    }

    /**
     * A server on one local address.
     *
     * @param bindAddress the local address to listen on
     * @param port the TCP port, or 0 for an ephemeral one
     * @param options how to talk
     * @return the server exchange, not yet bound
     */
    static TcpServerExchange server(InetAddress bindAddress, int port, TcpOptions options) {
        return new TcpServerExchange(new InetSocketAddress(bindAddress, port), options);
    }

    /**
     * A client of the server at {@code host}:{@code port}; it connects when {@link #exchange} is
     * called.
     *
     * @param host the server's name or address, without a port
     * @param port the server's TCP port
     * @param options how to talk; the server must use the same codec and security
     * @return the client exchange
     */
    static TcpClientExchange client(String host, int port, TcpOptions options) {
        return new TcpClientExchange(host, port, options);
    }
}
