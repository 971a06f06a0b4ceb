package org.jrdma.tools.pingpong;

import java.time.Duration;
import java.util.Arrays;
import java.util.function.Consumer;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.Excerpt;
import org.jrdma.bootstrap.ExchangeEvent.Phase;
import org.jrdma.bootstrap.ExchangeListener;
import org.jrdma.bootstrap.MalformedMessageException;
import org.jrdma.bootstrap.PingpongTextCodec;
import org.jrdma.bootstrap.RcConnector;
import org.jrdma.tools.perf.PerfChannel;

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
final class PingpongServerExchange implements RcConnector.PeerFirstExchange {
    private static final byte[] DONE = {'d', 'o', 'n', 'e', 0};

    private final int port;
    private final Duration timeout;

    /** {@code timeout} bounds the accept and each read and write, as the bootstrap's TcpOptions do. */
    PingpongServerExchange(int port, Duration timeout) {
        this.port = port;
        this.timeout = timeout;
    }

    @Override
    public ConnInfo exchange(ConnInfo local, ExchangeListener listener, Consumer<ConnInfo> beforeReply) {
        PingpongTextCodec codec = PingpongTextCodec.INSTANCE;
        PerfChannel channel = null;
        try {
            listener.emit(Phase.LISTENING, "port " + port);
            channel = PerfChannel.accept(port, timeout);
            listener.emit(Phase.CONNECTED, "");
            byte[] theirs = new byte[codec.size()];
            channel.read(theirs, timeout, "peer's " + codec.name() + " message", codec::checkPrefix);
            ConnInfo peer = codec.decode(theirs);
            beforeReply.accept(peer); // the QP reaches RTS here, before the client can send
            byte[] mine = codec.encode(local);
            channel.write(mine, timeout, "our " + codec.name() + " message");
            listener.emit(Phase.SENT, mine.length + " bytes");
            byte[] done = new byte[DONE.length];
            channel.read(done, timeout, "peer's \"done\"", PingpongServerExchange::checkDone);
            listener.emit(Phase.RECEIVED, theirs.length + " bytes");
            return peer;
        } finally {
            if (channel != null) {
                channel.close();
            }
            listener.emit(Phase.CLOSED, "");
        }
    }

    private static void checkDone(byte[] partial, int length) {
        if (!Arrays.equals(partial, 0, length, DONE, 0, length)) {
            throw new MalformedMessageException("terminator", "expected \"done\\x00\", got " + Excerpt.of(partial, 0, length));
        }
    }
}
