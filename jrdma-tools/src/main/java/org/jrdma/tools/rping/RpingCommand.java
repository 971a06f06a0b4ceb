package org.jrdma.tools.rping;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.Callable;
import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.options.TimeoutOption;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jrdma rping}: librdmacm's rping — a connection made by the connection manager (no
 * TCP), then an RDMA READ / RDMA WRITE ping-pong of a buffer whose address and rkey travel in
 * SENDs. Flags and defaults are rping's: port 7174, 64-byte buffers, count 0 = forever.
 */
// Not mixinStandardHelpOptions: its -V (version) collides with rping's -V (validate), and picocli
// then leaves the whole mixin out, -h and --help included; so -h/--help are declared here.
@Command(name = "rping", description = {
        "RDMA ping over a connection-manager connection, as librdmacm's rping:",
        "  server:  jrdma rping -s [-a ADDR] [-p PORT] [-S SIZE] [-vd] [-P]",
        "  client:  jrdma rping -c -a ADDR [-I ADDR] [-p PORT] [-C N] [-S SIZE] [-vVd]"})
public final class RpingCommand implements Callable<Integer> {
    static final int DEFAULT_PORT = 7174;
    /** -P's clients at once (rping has no limit: see RpingServer). */
    static final int DEFAULT_MAX_CLIENTS = 16;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    @Option(names = "-s", description = "Server.")
    boolean server;

    @Option(names = "-c", description = "Client.")
    boolean client;

    @Option(names = "-a", paramLabel = "ADDR", description = "Address: the server's to connect to (client), the one to listen on (server; default: every device).")
    String address;

    @Option(names = "-I", paramLabel = "ADDR", description = "Source address to bind to (client).")
    String source;

    @Option(names = "-p", paramLabel = "PORT", defaultValue = "" + DEFAULT_PORT, description = "Port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "-C", paramLabel = "COUNT", defaultValue = "0", description = "Number of pings; 0 (default) pings until interrupted.")
    long count;

    @Option(names = "-S", paramLabel = "SIZE", defaultValue = "64", description = "Ping data size (default: ${DEFAULT-VALUE}; 26 to 65535).")
    int size;

    @Option(names = "-v", description = "Display ping data.")
    boolean verbose;

    @Option(names = "-V", description = "Validate ping data.")
    boolean validate;

    @Option(names = "-d", description = "Debug printfs.")
    boolean debug;

    @Option(names = "-P", description = "Persistent server: serve client after client, several at once, as rping -P; a client that fails is reported and the server goes on.")
    boolean persistent;

    @Option(names = "--max-clients", paramLabel = "N", description = "With -P: clients served at once; a request beyond is rejected (default: " + DEFAULT_MAX_CLIENTS + ").")
    Integer maxClients;

    @Option(names = "-q", hidden = true, description = "rping's self-created, self-modified QP: not supported.")
    boolean selfCreatedQp;

    /** rping itself waits forever for each of these (its server still waits for its first client unbounded). */
    @CommandLine.Mixin
    TimeoutOption timeout = new TimeoutOption(10_000);

    @Override
    public Integer call() throws Exception {
        RpingOptions o = options();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (o.server()) {
            new RpingServer(o, out, err).run();
        } else {
            long pings = new RpingClient(o, out, err).run();
            if (o.debug()) {
                out.println("rping: " + pings + " pings done");
            }
        }
        out.flush();
        return ExitCodes.OK;
    }

    private RpingOptions options() {
        if (server == client) {
            throw usage("give -s (server) or -c (client)");
        }
        if (client && address == null) {
            throw usage("a client needs the server's address: -a ADDR");
        }
        if (selfCreatedQp) {
            throw usage("-q (a QP made and moved through its states by rping itself, with rdma_init_qp_attr) is not supported: "
                    + "jrdma's connection manager has no init_qp_attr; leave -q out (the CM makes the QP)");
        }
        if (client && persistent) {
            throw usage("-P is for the server (-s -P): a persistent server serves client after client");
        }
        if (server && source != null) {
            throw usage("-I is for the client (the source address to connect from); a server listens on -a");
        }
        if (maxClients != null && !persistent) {
            throw usage("--max-clients needs -P: without it the server serves one client");
        }
        if (maxClients != null && maxClients < 1) {
            throw usage("--max-clients must be 1 or more, not " + maxClients);
        }
        if (size < PingText.MIN_SIZE || size > PingText.MAX_SIZE) {
            throw usage("Invalid size " + size + " (valid range is " + PingText.MIN_SIZE + " to " + PingText.MAX_SIZE + ")");
        }
        if (port < 0 || port > 65535) {
            throw usage("-p must be 0..65535, not " + port);
        }
        if (count < 0) {
            throw usage("-C must be 0 (forever) or more, not " + count);
        }
        if (timeout.millis() <= 0) {
            throw usage("--timeout-ms must be positive");
        }
        InetAddress addr = resolve("-a", address == null ? "0.0.0.0" : address);
        InetAddress from = source == null ? null : resolve("-I", source);
        return new RpingOptions(server, addr, from, port, count, size, verbose, validate, debug, persistent,
                maxClients == null ? DEFAULT_MAX_CLIENTS : maxClients, timeout.duration());
    }

    private InetAddress resolve(String flag, String host) {
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw usage(flag + ": unknown address " + host);
        }
    }

    private CommandLine.ParameterException usage(String message) {
        return ExitCodes.usage(spec, message);
    }
}
