package org.jrdma.tools.perf;

import java.io.PrintWriter;
import java.util.function.Consumer;
import org.jrdma.bootstrap.KeyMessage;
import org.jrdma.bootstrap.MalformedMessageException;
import org.jrdma.bootstrap.ProviderMismatchException;
import org.jrdma.bootstrap.tcp.HostName;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.DeviceAttr;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.PortAttr;
import org.jrdma.verbs.QpType;
import org.jrdma.tools.options.PeerDevice;
import org.jrdma.verbs.ProviderChoice;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.Errno;

/**
 * Everything before the test (ROCEV2-FACTS §6.3 steps 1–9), in perftest's order: open the
 * device; connect or accept; versions; cycle buffer and cache line; MTU; create the resources;
 * print the banner; one key exchange per QP; move the QPs to RTR and RTS; print our addresses;
 * a second key exchange per QP, printing the peer's; the "additional handshake after moving QP
 * to RTR". What follows depends on the test ({@link BwRun}, {@link LatRun}).
 */
final class PerfSession implements AutoCloseable {
    final PerfConfig c;
    final PrintWriter out;
    final PerfExchange exchange;
    final PerfResources res;
    final Mtu mtu;
    final int cycleBuffer;
    final int[] sizes;
    final KeyMessage[] local;
    final KeyMessage[] peers;
    final String deviceName;
    final int cqMod;
    /** With -R: the connection manager's connections (null over TCP). */
    private final RdmaCmLink link;
    /** With -R: our own context of the device, which the resources (on the CM's) do not own. */
    private final Context ownContext;
    /** --idle-qps: the QPs held beside the test's (closed before the resources). */
    final IdleQps idle;
    /** The CPU this process had used (every thread) when the session was set up, the test next; NaN if unknown. */
    final double setupCpuSeconds;

    private PerfSession(PerfConfig c, PrintWriter out, PerfExchange exchange, PerfResources res, Mtu mtu, int cycleBuffer,
            int[] sizes, KeyMessage[] local, KeyMessage[] peers, String deviceName, int cqMod, RdmaCmLink link,
            Context ownContext, IdleQps idle) {
        this.idle = idle;
        this.setupCpuSeconds = processCpuSeconds();
        this.link = link;
        this.ownContext = ownContext;
        this.c = c;
        this.out = out;
        this.exchange = exchange;
        this.res = res;
        this.mtu = mtu;
        this.cycleBuffer = cycleBuffer;
        this.sizes = sizes;
        this.local = local;
        this.peers = peers;
        this.deviceName = deviceName;
        this.cqMod = cqMod;
    }

    static PerfSession open(PerfConfig asked, PrintWriter out, Consumer<String> notices) {
        if (!asked.isServer()) {
            HostName.check(asked.host()); // a host with a port in it is refused before any device opens, -R or not
        }
        ProviderChoice.Choice choice = ProviderChoice.fromEnvironment().choose();
        PerfExchange exchange = null;
        PeerDevice pick;
        if (asked.cmExchange()) { // the connection manager binds an address, which no shm device has
            pick = PeerDevice.without(choice, asked.device());
        } else if (!asked.isServer()) {
            pick = PeerDevice.forServerAt(choice, asked.device(), asked.host());
        } else if (PeerDevice.dependsOnPeer(choice, asked.device())) {
            // the device depends on where the client is: accept first (the client sees the same
            // messages in the same order), then open it
            out.println(Banner.WAITING);
            out.flush();
            exchange = PerfExchange.accept(asked.port(), asked.timeout(), runWait(asked));
            pick = PeerDevice.forClientFrom(choice, asked.device(), exchange.peerAddress());
        } else {
            pick = PeerDevice.without(choice, asked.device());
        }
        if (pick.why() != null) {
            notices.accept(pick.why());
        }
        var device = pick.device();
        Context ctx;
        try {
            ctx = device.open();
        } catch (RuntimeException e) {
            if (exchange != null) {
                exchange.close();
            }
            throw e;
        }
        PerfResources res = null;
        RdmaCmLink link = null;
        PerfBuffer memory = null; // ours until a PerfResources takes it (failing or not)
        IdleQps idle = IdleQps.NONE;
        try {
            DeviceAttr attr = ctx.queryDevice();
            PerfConfig c = resolve(asked, attr);
            PortAttr port = ctx.queryPort(QpConnector.PORT);
            Mtu portMtu = port.activeMtu();
            Mtu mine = c.mtu() == null ? portMtu : c.mtu();
            if (mine.bytes() > portMtu.bytes()) {
                throw new VerbsException(Errno.EINVAL, "--mtu " + mine.bytes() + " is above the port's active MTU "
                        + portMtu.bytes());
            }
            int sendDepth = c.test() == PerfTest.SEND_LAT ? SendLatency.sendQueueDepth(c) : c.txDepth();
            int recvDepth = c.verb() == Verb.SEND ? c.rxDepth() : 1;
            LocalLimits.check(ctx, device.name(), c, attr, port, mine, sendDepth, recvDepth); // before any network activity
            // the path MTU is at most ours, and a UD size only shrinks to it: the largest message is known now
            memory = PerfBuffer.allocate(ctx, c.maxSize(mine), c.connection() == QpType.UD, c.qps());
            if (c.cqModFromPostList()) {
                out.println(Banner.RESULT_LINE);
                out.println(Banner.POST_LIST_CQ_MOD);
            }
            Runnable waiting = () -> {
                out.println(Banner.WAITING);
                out.flush();
            };
            if (c.isServer() && !c.cmExchange() && exchange == null) {
                waiting.run();
            }
            if (c.cmExchange()) {
                // The connection manager's context of the device makes everything from here on.
                // Ours stays open to the end: the two share the device, which then starts once.
                java.net.InetAddress source = ctx.queryGid(QpConnector.PORT, 0).toInetAddress();
                link = RdmaCmLink.open(c, source, waiting, notices);
                exchange = PerfExchange.overRdmaCm(link.pipe(), !c.isServer(), c.gidIndex(), c.timeout(), runWait(c));
            } else if (exchange != null) {
                // accepted before the device was chosen
            } else if (c.isServer()) {
                exchange = PerfExchange.accept(c.port(), c.timeout(), runWait(c));
            } else {
                exchange = PerfExchange.connect(c.host(), c.port(), c.timeout(), runWait(c), notices);
            }
            exchange.versions();
            int cycleBuffer = exchange.sysData(PerfExchange.CYCLE_BUFFER, PerfExchange.CACHE_LINE)[0];
            Mtu mtu = exchange.mtu(mine);
            if (c.connection() == QpType.UD && !c.all() && c.size() > mtu.bytes()) {
                if (c.sizeGiven()) {
                    throw new VerbsException(Errno.EINVAL, "a UD message is at most the path MTU, " + mtu.bytes()
                            + " bytes; --size " + c.size() + " is larger");
                }
                out.println(" Max msg size in UD is MTU " + mtu.bytes());
                out.println(" Changing to this MTU");
                c = c.withSize(mtu.bytes());
            }
            int[] sizes = c.sizes(mtu);
            PerfBuffer owned = memory;
            memory = null;
            if (c.rdmaCm()) {
                exchange.blankKeys();
                int depth = c.verb().usesReadResources() ? c.outReads() : 0;
                RdmaCmLink cm = link;
                res = new PerfResources(cm.context(), false, (q, pd, init) -> cm.connectData(q, pd, init, depth), c, owned,
                        sendDepth, recvDepth, c.inlineSize());
                exchange.blankKeys();
            } else if (c.cmExchange()) {
                // -z: the test QPs are made and connected by verbs, but on the connection manager's
                // context, as -R's are: a second context of the device in this process would have
                // its own engine, and the peer's ACKs would reach the one that knows no such QP
                res = new PerfResources(link.context(), false, PerfResources.VERBS, c, owned, sendDepth, recvDepth,
                        c.inlineSize());
            } else {
                res = new PerfResources(ctx, c, owned, sendDepth, recvDepth, c.inlineSize());
            }
            if (c.check() && c.verb() == Verb.READ) {
                for (int q = 0; q < c.qps(); q++) {
                    DataPattern.fill(res.buffer, res.layout.targetOffset(q), res.layout.regionBytes, DataPattern.READ_SOURCE,
                            c.isServer() ? DataPattern.SERVER_SALT : DataPattern.CLIENT_SALT, 0);
                }
            }
            // --idle-qps: made and at RTS before the keys go, so both sides hold them for the whole test
            idle = IdleQps.open(res.ctx, res.pd, res.gid, c.gidIndex(), mtu, c.idleQps());
            int cqMod = Math.max(1, Math.min(c.cqMod(), c.txDepth()));
            if (c.byDuration() && c.test().isBandwidth()) {
                out.println(Banner.NO_PEAK_WARNING);
            }
            out.println(Banner.testInfo(c, device.name(), mtu, c.rxDepth(), cqMod, c.inlineSize()));
            if (idle.size() > 0) {
                out.println(" jrdma: " + idle.size() + " idle RC QPs at RTS beside the test's (--idle-qps)");
            }
            out.flush();

            KeyMessage[] local = new KeyMessage[c.qps()];
            KeyMessage[] peers = new KeyMessage[c.qps()];
            for (int q = 0; q < c.qps(); q++) {
                local[q] = res.localKey(q, c.outReads());
                peers[q] = exchange.keys(local[q], "QP " + q);
            }
            if (!c.rdmaCm()) { // with -R the connection manager took the QPs to RTR and RTS
                for (int q = 0; q < c.qps(); q++) {
                    ProviderMismatchException.check(local[q].gid(), peers[q].gid()); // an shm QP meets only shm QPs
                }
                res.connect(peers, mtu, c.gidIndex(), c.outReads(), c.verb().usesReadResources(), c.extras().sl(),
                        c.extras().qpTimeout());
            }
            for (KeyMessage m : local) {
                out.println(Banner.address("local", m, c.verb()));
                out.println(Banner.gid(m.gid()));
            }
            for (int q = 0; q < c.qps(); q++) {
                KeyMessage again = exchange.keys(local[q], "QP " + q + ", printed");
                if (!again.equals(peers[q])) {
                    throw new MalformedMessageException("key message", "the peer's QP " + q
                            + " keys changed between the first and the second exchange (do both sides run the same -q?)");
                }
                out.println(Banner.address("remote", peers[q], c.verb()));
                out.println(Banner.gid(peers[q].gid()));
            }
            exchange.keys(local[0], "after RTR");
            out.flush();
            return new PerfSession(c, out, exchange, res, mtu, cycleBuffer, sizes, local, peers, device.name(), cqMod, link,
                    c.cmExchange() ? ctx : null, idle);
        } catch (RuntimeException e) {
            if (exchange != null) {
                exchange.close();
            }
            try {
                idle.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            if (link != null) {
                link.close(); // before the resources: the test QP is the data id's
            }
            if (res != null) {
                res.close();
            }
            if (memory != null) {
                memory.close();
            }
            if (res == null || asked.cmExchange()) {
                ctx.close();
            }
            throw e;
        }
    }

    /** This process's CPU time so far (user + system, every thread), in seconds; NaN where the JVM cannot tell. */
    static double processCpuSeconds() {
        if (java.lang.management.ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            long nanos = os.getProcessCpuTime();
            return nanos < 0 ? Double.NaN : nanos / 1e9;
        }
        return Double.NaN;
    }

    /**
     * How long a side waits over the out-of-band channel while its peer measures: --run-timeout-s
     * on top of the peer's -D (a passive server waits through the client's whole run, and a -D
     * longer than the run timeout ended in a timeout on that side).
     */
    static java.time.Duration runWait(PerfConfig c) {
        if (c.extras().runInfinitely()) {
            return java.time.Duration.ofSeconds(PerfCommand.MAX_RUN_TIMEOUT_S); // the peer's run has no end: wait until it is killed
        }
        return c.runTimeout().plusSeconds(c.durationSeconds());
    }

    /** Settles the defaults that depend on the device and the run: max inline data, receive depth. */
    private static PerfConfig resolve(PerfConfig c, DeviceAttr attr) {
        boolean ud = c.connection() == QpType.UD;
        int inline = c.inlineSize() >= 0 ? c.inlineSize() : Math.min(c.test().defaultInline(ud), attr.maxInlineData());
        if (inline > attr.maxInlineData()) {
            throw new VerbsException(Errno.EINVAL, "--inline_size " + inline + " is above the device's max_inline_data "
                    + attr.maxInlineData());
        }
        // perftest: never more receives than iterations.
        int rx = c.byDuration() ? c.rxDepth() : Math.min(c.rxDepth(), Math.max(1, c.iters()));
        return c.resolved(inline, rx);
    }

    long durationNanos() {
        return c.durationSeconds() * 1_000_000_000L;
    }

    /** The peer's key message for a synchronisation (QP 0's, as perftest). */
    KeyMessage sync(String purpose) {
        return exchange.sync(local[0], purpose);
    }

    void closeExchange() {
        endConversation();
        disconnect();
    }

    /** The closing key exchange and "done" (with -R: the key exchange only). */
    void endConversation() {
        exchange.close(local[0]);
    }

    /** With -R, the CM connections' orderly end, which takes the test QPs to ERR: after every drain. */
    void disconnect() {
        if (link != null) {
            link.disconnect();
        }
    }

    @Override
    public void close() {
        // With -R the test QP is the data id's, so the link closes before the resources; with -z
        // the test QPs are ours (on the CM's context), so they close before the exchange's CM id
        // and its context.
        boolean linkFirst = link != null && c.rdmaCm();
        try {
            exchange.close();
            if (linkFirst) {
                link.close();
            }
        } finally {
            try {
                try {
                    idle.close();
                } finally {
                    res.close();
                }
            } finally {
                try {
                    if (link != null && !linkFirst) {
                        link.close();
                    }
                } finally {
                    if (ownContext != null) {
                        ownContext.close();
                    }
                }
            }
        }
    }
}
