package org.jrdma.tools.pingpong;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jrdma.bootstrap.AuthenticatingExchange;
import org.jrdma.bootstrap.Exchange;
import org.jrdma.bootstrap.ExchangeListener;
import org.jrdma.bootstrap.tcp.TcpExchange;
import org.jrdma.bootstrap.tcp.TcpOptions;
import org.jrdma.bootstrap.tcp.TcpServerExchange;
import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.Main;
import org.jrdma.tools.options.PeerDevice;
import org.jrdma.tools.options.PskOption;
import org.jrdma.tools.options.TimeoutOption;
import org.jrdma.tools.rc.EndpointConfig;
import org.jrdma.tools.rc.RcFlags;
import org.jrdma.tools.rc.RcEndpoint;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.ProviderChoice;
import org.jrdma.verbs.QpType;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jrdma pingpong [host]}: ibv_rc_pingpong between two processes. Without a host it is
 * the server and waits for one client on TCP {@code -p}; with a host it is the client. The TCP
 * exchange carries rc_pingpong's 52-byte messages and "done" in rc_pingpong's order (the server
 * reads, connects its QP, then answers), then the socket is closed and every byte moves by RDMA
 * SEND/RECV. Either end may be ibv_rc_pingpong, with or without {@code -c}: with it every
 * received message is checked — a jrdma peer's byte for byte, an rdma-core peer's as rdma-core's
 * {@code -c} means it (see {@code MessageCheck}).
 * {@code --transport uc|ud} makes it ibv_uc_pingpong or ibv_ud_pingpong (same exchange; UD
 * messages fit in one MTU and land after the 40-byte GRH area of each receive).
 */
@Command(name = "pingpong", mixinStandardHelpOptions = true, description = {
        "Ping-pong between two processes, like ibv_rc_pingpong (ibv_uc_pingpong, ibv_ud_pingpong with --transport).",
        "Server: jrdma pingpong      Client: jrdma pingpong <server-host>"})
public final class PingpongCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    RcFlags rc;

    @Parameters(arity = "0..1", paramLabel = "HOST", description = "The server to connect to (omit to be the server).")
    String host;

    @Option(names = {"-p", "--port"}, defaultValue = "18515", description = "TCP port of the exchange (default: ${DEFAULT-VALUE}; 0 on a server: a free one, printed).")
    int port;

    @Option(names = {"-i", "--ib-port"}, defaultValue = "1", description = "Port of the device (default: ${DEFAULT-VALUE}; soft devices have one).")
    int ibPort;

    @Option(names = {"-r", "--rx-depth"}, defaultValue = "" + EndpointConfig.PINGPONG_RX_DEPTH,
            description = "Receives to keep posted (default: ${DEFAULT-VALUE}).")
    int rxDepth;

    @Option(names = {"-l", "--sl"}, defaultValue = "0", description = "Service level (default: ${DEFAULT-VALUE}).")
    int sl;

    @Option(names = "--transport", defaultValue = "rc", paramLabel = "rc|uc|ud",
            description = "Transport: rc (ibv_rc_pingpong), uc (ibv_uc_pingpong) or ud (ibv_ud_pingpong) (default: ${DEFAULT-VALUE}).")
    String transport;

    @Option(names = {"-c", "--chk"}, description = "Validate every received message: a jrdma peer's byte for byte; rdma-core's"
            + " (ibv_*_pingpong -c) echoes of ours byte for byte, and its first message by its rule (a zero at each page start).")
    boolean check;

    /** The server waits this long for its client too (its accept). */
    @CommandLine.Mixin
    TimeoutOption timeout = new TimeoutOption(30_000);

    @CommandLine.Mixin
    PskOption psk;

    @Override
    public Integer call() throws Exception {
        if (ibPort != 1) {
            throw rc.usage("--ib-port: soft devices have one port, port 1");
        }
        if (rxDepth < 1 || rxDepth > 16384) {
            throw rc.usage("--rx-depth must be 1..16384, not " + rxDepth);
        }
        if (sl < 0 || sl > 15) {
            throw rc.usage("--sl must be 0..15, not " + sl);
        }
        QpType type = switch (transport.toLowerCase(Locale.ROOT)) {
            case "rc" -> QpType.RC;
            case "uc" -> QpType.UC;
            case "ud" -> QpType.UD;
            default -> throw rc.usage("--transport must be rc, uc or ud, not " + transport);
        };
        EndpointConfig config = rc.toConfig("tcp", port, timeout.duration(), check).with(type, rxDepth, sl);
        if (type == QpType.UD && config.size() > config.mtu().bytes()) {
            throw rc.usage("--size " + config.size() + " is larger than the MTU " + config.mtu().bytes()
                    + ": a UD message is one packet (ibv_ud_pingpong refuses it too)");
        }
        boolean server = host == null;
        if (!server && port == 0) {
            throw rc.usage("--port 0 is for a server (it takes a free port and prints it); a client needs the server's port");
        }
        PrintWriter out = spec.commandLine().getOut();
        ProviderChoice.Choice choice = ProviderChoice.fromEnvironment().choose();
        // a server whose device depends on where its client is opens it after the accept
        boolean afterAccept = server && PeerDevice.dependsOnPeer(choice, config.device());
        PeerDevice dev = server ? PeerDevice.without(choice, config.device())
                : PeerDevice.forServerAt(choice, config.device(), host);
        Exchange exchange = exchange(server, config.timeout(), out);
        try {
            if (afterAccept) {
                Exchange accepted = acceptFirst(exchange);
                dev = PeerDevice.forClientFrom(choice, config.device(), peerOf(accepted));
                exchange = accepted;
            }
            if (dev.why() != null) {
                Main.notices(spec).accept(dev.why());
            }
            run(server, dev.device(), config, exchange, out);
        } finally {
            if (exchange instanceof AutoCloseable listening) {
                listening.close(); // a server that failed before its exchange stops listening
            }
        }
        return ExitCodes.OK;
    }

    /**
     * The accept (and with a key, the authentication) before the device is opened, the
     * exchange then going on on that connection: what a client sees is the same messages in the
     * same order, only the server's QP is made a little later.
     */
    private static Exchange acceptFirst(Exchange exchange) {
        return switch (exchange) {
            case PingpongServerExchange s -> {
                s.acceptPeer();
                yield s;
            }
            case TcpServerExchange s -> s.authenticate(ExchangeListener.NONE);
            default -> exchange;
        };
    }

    private static InetAddress peerOf(Exchange accepted) {
        return switch (accepted) {
            case PingpongServerExchange s -> s.acceptedPeer();
            case AuthenticatingExchange.Session s -> s.peerAddress();
            default -> null;
        };
    }

    /**
     * The server listens at once (a port in use is said before a device is opened; rc_pingpong
     * binds port 0 too, to a port nobody is told — we print it); the client connects later.
     */
    private Exchange exchange(boolean server, Duration timeout, PrintWriter out) {
        TcpOptions options = TcpOptions.rcPingpong().withTimeout(timeout);
        if (psk.given()) {
            // Authenticated (AUTH-01): both sides prove the key before any QP exists; the
            // bootstrap's server keeps rdma-core's order (QP at RTS before it answers).
            options = options.withSecurity(psk.security());
        }
        if (!server) {
            return TcpExchange.client(host, port, options);
        }
        int listening;
        Exchange exchange;
        if (psk.given()) {
            TcpServerExchange s = TcpExchange.server(port, options).bind();
            listening = s.localPort();
            exchange = s;
        } else {
            // The server reads the client's message and connects its QP before answering, as
            // rdma-core's server does (see PingpongServerExchange).
            PingpongServerExchange s = new PingpongServerExchange(port, timeout);
            listening = s.bind();
            exchange = s;
        }
        if (port == 0) {
            out.println("  listening on TCP port " + listening + " (-p 0: a free port; give the client -p " + listening + ")");
            out.flush();
        }
        return exchange;
    }

    private void run(boolean server, Device dev, EndpointConfig config, Exchange exchange, PrintWriter out) {
        int iters = config.iters();
        int size = config.size();
        try (RcEndpoint side = new RcEndpoint(dev, server ? "server" : "client",
                server ? RcEndpoint.SERVER_SALT : RcEndpoint.CLIENT_SALT, config)) {
            side.withNotices(Main.notices(spec));
            side.connect(exchange);
            out.println("  local address:  " + side.local);
            out.println("  remote address: " + side.remote);
            out.flush();
            long t0 = System.nanoTime();
            for (long i = 0; i < iters; i++) {
                if (server) {
                    side.serverRound(i);
                } else {
                    side.clientRound(i);
                }
            }
            if (server) {
                side.drainSends(iters);
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            long bytes = 2L * size * iters;
            out.printf(Locale.ROOT, "%d bytes in %.2f seconds = %.2f Mbit/sec%n", bytes, seconds, bytes * 8 / (seconds * 1e6));
            out.printf(Locale.ROOT, "%d iters in %.2f seconds = %.2f usec/iter%n", iters, seconds, seconds * 1e6 / iters);
            if (check) {
                out.println(side.checkSummary());
            }
        }
    }
}
