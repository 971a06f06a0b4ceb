package org.jrdma.tools.pingpong;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;
import java.util.function.Consumer;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.ExchangeEvent.Phase;
import org.jrdma.bootstrap.ExchangeIoException;
import org.jrdma.bootstrap.ExchangeListener;
import org.jrdma.bootstrap.PingpongTextCodec;
import org.jrdma.bootstrap.RcConnector;
import org.jrdma.bootstrap.tcp.Done;
import org.jrdma.bootstrap.tcp.MessageChannel;
import org.jrdma.bootstrap.tcp.PlainPeerCheck;

/**
 * The server's side of ibv_{rc,uc,ud}_pingpong's TCP exchange in rdma-core's own order
 * (pp_server_exch_dest): accept one client, read its 52-byte message, let {@link RcConnector}
 * take the QP to RTR and RTS, then write ours and read the client's {@code "done"}.
 *
 * <p>Why not jrdma-bootstrap's TCP server: it writes first and the QP is connected only after
 * the socket is closed. An rdma-core client sends its first message as soon as it has ours and
 * has written "done", so that message could find our QP short of RTR — on UC it was lost and
 * the ping-pong stalled (2 runs in 5 against ibv_uc_pingpong on the rxe lab, and jrdma against
 * itself under load); on RC rxe retries it after its 67 ms ACK timeout.
 */
final class PingpongServerExchange implements RcConnector.PeerFirstExchange, AutoCloseable {
    private final int port;
    private final Duration timeout;
    private ServerSocketChannel serverSocket;
    private int boundPort = -1;
    /** The client, when {@link #acceptPeer} took it before the exchange. */
    private MessageChannel accepted;
    /** Where that client connected from. */
    private InetAddress peer;

    /** {@code timeout} bounds the accept and each read and write, as the bootstrap's TcpOptions do. */
    PingpongServerExchange(int port, Duration timeout) {
        this.port = port;
        this.timeout = timeout;
    }

    /**
     * Listens now (every local address, SO_REUSEADDR, backlog 1, as rc_pingpong), so that a port
     * taken is said before any device is opened and port 0's choice is known; returns the port.
     */
    synchronized int bind() {
        if (serverSocket == null) {
            serverSocket = MessageChannel.listen(new InetSocketAddress(port));
            boundPort = serverSocket.socket().getLocalPort();
        }
        return boundPort;
    }

    /**
     * Accepts the client now, before any device is opened, and returns where it connected from:
     * the server picks its device by it (auto: shm for a client on this host). The exchange then
     * runs on this connection; the wire is the same, the client's message waits in the socket.
     */
    synchronized InetAddress acceptPeer() {
        try (ServerSocketChannel server = takeListener()) {
            accepted = MessageChannel.of(MessageChannel.acceptOne(server, timeout));
        } catch (IOException e) {
            throw new ExchangeIoException("close the listening socket", e);
        }
        peer = accepted.peerInetAddress();
        return peer;
    }

    /** {@return where the client {@link #acceptPeer} took connected from; null before} */
    synchronized InetAddress acceptedPeer() {
        return peer;
    }

    @Override
    public ConnInfo exchange(ConnInfo local, ExchangeListener listener, Consumer<ConnInfo> beforeReply) {
        PingpongTextCodec codec = PingpongTextCodec.INSTANCE;
        MessageChannel channel = takeAccepted();
        try {
            if (channel == null) {
                try (ServerSocketChannel server = takeListener()) { // one client, then nobody else may connect
                    listener.emit(Phase.LISTENING, "port " + boundPort);
                    channel = MessageChannel.of(MessageChannel.acceptOne(server, timeout));
                } catch (IOException e) {
                    throw new ExchangeIoException("close the listening socket", e);
                }
            }
            listener.emit(Phase.CONNECTED, "");
            byte[] theirs = new byte[codec.size()];
            channel.readExactly(theirs, timeout, "peer's " + codec.name() + " message", PlainPeerCheck.of(codec));
            ConnInfo peer = codec.decode(theirs);
            beforeReply.accept(peer); // the QP reaches RTS here, before the client can send
            byte[] mine = codec.encode(local);
            channel.writeAll(mine, timeout, "our " + codec.name() + " message");
            listener.emit(Phase.SENT, mine.length + " bytes");
            channel.readExactly(new byte[Done.LENGTH], timeout, "peer's \"done\"", Done::check);
            listener.emit(Phase.RECEIVED, theirs.length + " bytes");
            return peer;
        } finally {
            closeQuietly(channel);
            close();
            listener.emit(Phase.CLOSED, "");
        }
    }

    private synchronized ServerSocketChannel takeListener() {
        bind();
        ServerSocketChannel s = serverSocket;
        serverSocket = null;
        return s;
    }

    private synchronized MessageChannel takeAccepted() {
        MessageChannel c = accepted;
        accepted = null;
        return c;
    }

    /** Stops listening, and drops a client accepted early, if the exchange never ran. */
    @Override
    public synchronized void close() {
        closeQuietly(serverSocket);
        serverSocket = null;
        closeQuietly(accepted);
        accepted = null;
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
