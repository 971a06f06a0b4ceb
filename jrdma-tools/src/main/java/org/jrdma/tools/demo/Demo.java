package org.jrdma.tools.demo;

import org.jrdma.tools.rc.EndpointConfig;
import org.jrdma.tools.rc.RcEndpoint;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.Exchange;
import org.jrdma.bootstrap.file.FileExchange;
import org.jrdma.bootstrap.fixed.StaticExchange;
import org.jrdma.bootstrap.tcp.TcpExchange;
import org.jrdma.bootstrap.tcp.TcpOptions;
import org.jrdma.bootstrap.tcp.TcpSecurity;
import org.jrdma.bootstrap.tcp.TcpServerExchange;
import org.jrdma.soft.SoftContext;
import org.jrdma.soft.SoftDevice;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.Verbs;
import org.jrdma.verbs.VerbsException;

/**
 * The seed's lifecycle between two endpoints in this process, phase by phase: 1) the
 * out-of-band channel opens, 2) both sides' connection info is swapped, 3) the channel is
 * closed, 4) each QP walks RESET → INIT → RTR → RTS, 5) messages move by RDMA SEND/RECV
 * alone. Each endpoint runs on its own thread with its own context; this thread prints each
 * phase when both sides have finished it.
 */
public final class Demo {
    private static final int SERVER_SALT = RcEndpoint.SERVER_SALT;
    private static final int CLIENT_SALT = RcEndpoint.CLIENT_SALT;

    private final EndpointConfig config;
    private final Consumer<Phase> onPhase;
    private final Path pcap;
    /** Round trips the client has finished, for a progress line (written by the client thread only). */
    private volatile long roundsDone;
    private TcpSecurity security = TcpSecurity.plain();

    public Demo(EndpointConfig config, Consumer<Phase> onPhase) {
        this(config, onPhase, null);
    }

    /** With {@code pcap}, a soft device records every packet of the run there (for tshark). */
    public Demo(EndpointConfig config, Consumer<Phase> onPhase, Path pcap) {
        this.config = config;
        this.onPhase = onPhase;
        this.pcap = pcap;
    }

    /** How the TCP exchange authenticates (plain by default: rc_pingpong's format). */
    public Demo withSecurity(TcpSecurity s) {
        this.security = java.util.Objects.requireNonNull(s, "security");
        return this;
    }

    /** Round trips done so far (a progress line's count). */
    public long roundsDone() {
        return roundsDone;
    }

    public DemoResult run() throws Exception {
        Device device = Verbs.device(config.device());
        if (pcap != null) {
            if (!(device instanceof SoftDevice soft)) {
                throw new VerbsException(Errno.EOPNOTSUPP, "--pcap: only soft devices record their packets");
            }
            device = soft.withOptions(soft.options().pcap(pcap));
        }
        if (!isCm()) {
            try (RcEndpoint server = new RcEndpoint(device, "server", SERVER_SALT, config);
                 RcEndpoint client = new RcEndpoint(device, "client", CLIENT_SALT, config)) {
                return run(device, server, client, null);
            }
        }
        try (CmBootstrap cm = new CmBootstrap(deviceAddress(device), config.port(), config.timeout())) {
            // librdmacm creates a QP only with a PD of the id's own context (pd->context ==
            // id->verbs): on a NIC both endpoints live on the listener's. The soft CM takes any
            // context of the device, and a soft device's own (--pcap's options) is kept.
            boolean own = device instanceof SoftDevice;
            try (RcEndpoint server = own ? new RcEndpoint(device, "server", SERVER_SALT, config)
                         : new RcEndpoint(cm.verbs(), "server", SERVER_SALT, config);
                 RcEndpoint client = own ? new RcEndpoint(device, "client", CLIENT_SALT, config)
                         : new RcEndpoint(cm.verbs(), "client", CLIENT_SALT, config)) {
                try {
                    return run(device, server, client, cm);
                } finally {
                    cm.close(); // disconnect while the QPs still exist; the outer close is then a no-op
                }
            }
        }
    }

    private DemoResult run(Device device, RcEndpoint server, RcEndpoint client, CmBootstrap cm) throws Exception {
        List<Phase> phases = new ArrayList<>();
        Consumer<Phase> record = p -> {
            phases.add(p);
            onPhase.accept(p);
        };
        Exchanges ex = cm != null ? new Exchanges(null, null, cm.describe()) : exchanges(server, client);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch go = new CountDownLatch(1);
        long[] rtts = new long[config.iters()];
        long[] dataNanos = new long[1];

        Thread serverThread = side("server", failure, () -> {
            if (cm != null) {
                cm.server(server);
            } else {
                server.connect(ex.server);
            }
            await(go);
            for (long i = 0; i < config.iters(); i++) {
                server.serverRound(i);
            }
            server.drainSends(config.iters());
        });
        Thread clientThread = side("client", failure, () -> {
            if (cm != null) {
                cm.client(client);
            } else {
                client.connect(ex.client);
            }
            await(go);
            long t0 = System.nanoTime();
            for (int i = 0; i < config.iters(); i++) {
                long s = System.nanoTime();
                client.clientRound(i);
                rtts[i] = System.nanoTime() - s;
                roundsDone = i + 1;
            }
            dataNanos[0] = System.nanoTime() - t0;
        });

        // 1) channel up — for TCP the client's connect; file/static have no connection.
        awaitBoth(failure, server.connected, client.connected);
        long connectEnd = Math.max(server.connectedNanos, client.connectedNanos);
        record.accept(new Phase(1, connectPhaseName(), connectEnd - client.startNanos, ex.describe));
        // 2) both sides hold the peer's info.
        awaitBoth(failure, server.exchanged, client.exchanged);
        long exchangeEnd = Math.max(server.receivedNanos, client.receivedNanos);
        record.accept(new Phase(2, "exchange", exchangeEnd - connectEnd, infoLines(server, client)));
        // 3) the channel is closed on both sides.
        awaitBoth(failure, server.closed, client.closed);
        long closedEnd = Math.max(server.closedNanos, client.closedNanos);
        record.accept(new Phase(3, closedPhaseName(), Math.max(0, closedEnd - exchangeEnd), cm != null
                ? "no out-of-band channel: the exchange rode on QP1, and no TCP socket was opened"
                : "both sides closed their " + (isTcp() ? "sockets" : "files") + "; no RDMA packet sent yet"));
        // 4) QPs at RTS. Both are ready before either sends, so no first packet meets a QP in INIT.
        awaitBoth(failure, server.ready, client.ready);
        long rtsEnd = Math.max(server.rtsNanos, client.rtsNanos);
        record.accept(new Phase(4, "QP RESET→INIT→RTR→RTS", rtsEnd - closedEnd, qpLine(server) + "\n" + qpLine(client)));
        long goNanos = System.nanoTime(); // no WR that sends is posted before this (the data phase waits for go)
        go.countDown();
        serverThread.join(config.timeout().toMillis() * 4 + 60_000);
        clientThread.join(config.timeout().toMillis() * 4 + 60_000);
        if (failure.get() != null) {
            throw asException(failure.get());
        }
        if (serverThread.isAlive() || clientThread.isAlive()) {
            throw new VerbsException(Errno.ETIMEDOUT, "the data phase did not finish");
        }
        DataResult data = stats(rtts, dataNanos[0], client.verified() + server.verified());
        record.accept(new Phase(5, "data by RDMA " + "SEND/RECV" + (config.events() ? " (completion events)" : " (polling)"),
                dataNanos[0], ""));

        boolean seen = server.context() instanceof SoftContext;
        long firstPacket = seen ? firstRdmaPacketNanos(server) : goNanos;
        Map<String, Long> counters = server.context() instanceof SoftContext sc ? sc.counters() : Map.of();
        return new DemoResult(device.name(), config, phases, server.local, server.remote, client.local, client.remote,
                data, server.closedNanos, client.closedNanos, firstPacket, seen, counters);
    }

    private boolean isTcp() {
        return config.bootstrap().equals("tcp");
    }

    private boolean isCm() {
        return config.bootstrap().equals("cm");
    }

    /**
     * The IP address of the endpoint's device, from its GID at {@code -g} (::ffff:a.b.c.d, or an
     * IPv6 address): a soft device's one GID, or e.g. rxe's RoCEv2 IPv4 GID 1.
     */
    private InetAddress deviceAddress(Device device) throws java.net.UnknownHostException {
        try (Context c = device.open()) {
            return c.queryGid(1, config.gidIndex()).toInetAddress();
        }
    }

    private String connectPhaseName() {
        return switch (config.bootstrap()) {
            case "tcp" -> "TCP connect";
            case "cm" -> "CM address and route resolved";
            case "file" -> "file channel ready";
            default -> "static config loaded";
        };
    }

    private String closedPhaseName() {
        return isTcp() ? "TCP closed" : isCm() ? "no channel to close" : config.bootstrap() + " channel closed";
    }

    /** When the soft device sent its first RDMA packet (0: none yet). */
    private static long firstRdmaPacketNanos(RcEndpoint e) {
        return ((SoftContext) e.context()).firstTxNanos();
    }

    private static String infoLines(RcEndpoint server, RcEndpoint client) {
        return "server  local address:  " + server.local + "\n"
                + "client  local address:  " + client.local + "\n"
                + "server  remote address: " + server.remote + "\n"
                + "client  remote address: " + client.remote;
    }

    private static String qpLine(RcEndpoint e) {
        return String.format("%s QP 0x%06x: INIT +%.3f ms, RTR +%.3f ms, RTS +%.3f ms", e.role, e.local.qpn(),
                (e.initNanos - e.closedNanos) / 1e6, (e.rtrNanos - e.closedNanos) / 1e6, (e.rtsNanos - e.closedNanos) / 1e6);
    }

    private DataResult stats(long[] rtts, long nanos, long verified) {
        long[] sorted = rtts.clone();
        Arrays.sort(sorted);
        double sum = 0;
        for (long r : sorted) {
            sum += r;
        }
        int n = Math.max(1, sorted.length);
        // One-way latency = half the round trip, as rc_pingpong and perftest report it.
        double p50 = sorted.length == 0 ? 0 : sorted[(sorted.length - 1) / 2] / 2e3;
        double p99 = sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] / 2e3;
        double min = sorted.length == 0 ? 0 : sorted[0] / 2e3;
        long bytes = 2L * config.size() * config.iters();
        return new DataResult(config.iters(), config.size(), bytes, Math.max(1, nanos), p50, p99, sum / n / 2e3, min, verified);
    }

    /** The two ends of the chosen out-of-band channel. */
    private record Exchanges(Exchange server, Exchange client, String describe) {
    }

    private Exchanges exchanges(RcEndpoint server, RcEndpoint client) throws IOException {
        return switch (config.bootstrap()) {
            case "tcp" -> {
                TcpOptions options = TcpOptions.rcPingpong().withTimeout(config.timeout()).withSecurity(security);
                TcpServerExchange s = TcpExchange.server(InetAddress.getLoopbackAddress(), config.port(), options).bind();
                int port = s.localPort();
                yield new Exchanges(s, TcpExchange.client(InetAddress.getLoopbackAddress().getHostAddress(), port, options),
                        "client → server 127.0.0.1:" + port + (security instanceof TcpSecurity.Plain
                                ? " (rc_pingpong's 52-byte messages, then \"done\")"
                                : " (pre-shared key: mutual proofs, then the 52-byte messages sealed)"));
            }
            case "file" -> {
                Path dir = Files.createTempDirectory("jrdma-demo-");
                dir.toFile().deleteOnExit();
                String session = "demo-" + ProcessHandle.current().pid();
                yield new Exchanges(
                        cleanup(FileExchange.of(dir, session, "server", "client").withTimeout(config.timeout()), dir),
                        cleanup(FileExchange.of(dir, session, "client", "server").withTimeout(config.timeout()), dir),
                        "files in " + dir);
            }
            case "static" -> new Exchanges(staticFrom(client), staticFrom(server),
                    "each side reads the other's key=value config (lid, qpn, psn, gid)");
            default -> throw new VerbsException(Errno.EINVAL, "--bootstrap must be tcp, file or static, not " + config.bootstrap());
        };
    }

    /** Deletes the exchange directory once this side is done with it (best effort). */
    private static Exchange cleanup(FileExchange fe, Path dir) {
        return (local, listener) -> {
            try {
                return fe.exchange(local, listener);
            } finally {
                try (Stream<Path> files = Files.list(dir)) {
                    if (files.findAny().isEmpty()) {
                        Files.deleteIfExists(dir);
                    }
                } catch (IOException e) {
                    // another side may still use it; deleteOnExit covers the rest
                }
            }
        };
    }

    /**
     * Static configuration needs the peer's QPN, which exists only once the peer's QP does.
     * In this one-process demo the "operator" is the peer's thread: it publishes its info as
     * a config text, which this side parses with the real static-config parser.
     */
    private Exchange staticFrom(RcEndpoint peer) {
        return (local, listener) -> {
            ConnInfo info = waitFor(peer);
            String text = "# " + peer.role + "\nlid=" + info.lid() + "\nqpn=0x" + Integer.toHexString(info.qpn()) + "\npsn=0x"
                    + Integer.toHexString(info.psn()) + "\ngid=" + info.gid().toHex() + "\n";
            return StaticExchange.fromConfigText(text).exchange(local, listener);
        };
    }

    private ConnInfo waitFor(RcEndpoint peer) {
        long deadline = System.nanoTime() + config.timeout().toNanos();
        while (peer.local == null) {
            if (System.nanoTime() > deadline) {
                throw new VerbsException(Errno.ETIMEDOUT, "the " + peer.role + " published no connection info");
            }
            Thread.onSpinWait();
        }
        return peer.local;
    }

    private interface Body {
        void run() throws Exception;
    }

    private static Thread side(String name, AtomicReference<Throwable> failure, Body body) {
        return Thread.ofPlatform().name("jrdma-demo-" + name).start(() -> {
            try {
                body.run();
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            }
        });
    }

    private static void await(CountDownLatch latch) throws InterruptedException {
        latch.await();
    }

    private void awaitBoth(AtomicReference<Throwable> failure, CountDownLatch a, CountDownLatch b) throws Exception {
        long deadline = System.nanoTime() + config.timeout().toNanos() * 2;
        for (CountDownLatch l : List.of(a, b)) {
            while (!l.await(10, TimeUnit.MILLISECONDS)) {
                if (failure.get() != null) {
                    throw asException(failure.get());
                }
                if (System.nanoTime() > deadline) {
                    throw new VerbsException(Errno.ETIMEDOUT, "a demo phase did not finish within " + config.timeout().multipliedBy(2));
                }
            }
        }
    }

    private static Exception asException(Throwable t) {
        return t instanceof Exception e ? e : new RuntimeException(t);
    }

    static Comparator<Phase> byNumber() {
        return Comparator.comparingInt(Phase::number);
    }
}
