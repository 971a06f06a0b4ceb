package org.jrdma.tools.demo;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.Progress;
import org.jrdma.tools.options.PskOption;
import org.jrdma.tools.options.TimeoutOption;
import org.jrdma.tools.rc.EndpointConfig;
import org.jrdma.tools.rc.RcEndpoint;
import org.jrdma.tools.rc.RcFlags;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jrdma demo}: the life of an RDMA program, phase by phase, between two endpoints on
 * this host. Flag names follow rc_pingpong's.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, description = {
        "Run an RDMA program's whole life between two endpoints on this host and print each phase:",
        "1) out-of-band connect, 2) exchange of LID/QPN/PSN/GID, 3) channel closed,",
        "4) QP RESET→INIT→RTR→RTS, 5) messages by RDMA SEND/RECV alone, completions polled or by events."})
public final class DemoCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    RcFlags rc;

    @Option(names = "--bootstrap", paramLabel = "tcp|file|static|cm", defaultValue = "tcp",
            description = "Out-of-band channel (default: ${DEFAULT-VALUE}); cm: the connection manager, no TCP at all.")
    String bootstrap;

    @Option(names = {"-p", "--port"}, defaultValue = "0",
            description = "TCP port of the exchange (cm: the listener's rdma_cm port); 0 (default) picks a free one, since both ends are in this process.")
    int port;

    @Option(names = "--json", description = "Print one JSON object instead of the phases.")
    boolean json;

    @Option(names = "--pcap", paramLabel = "FILE", description = "Record the run's RoCEv2 packets in a pcap file (read it with tshark or Wireshark).")
    java.nio.file.Path pcap;

    /** Both ends are in this process. */
    @CommandLine.Mixin
    TimeoutOption timeout = new TimeoutOption(10_000);

    @CommandLine.Mixin
    PskOption psk;

    @Override
    public Integer call() throws Exception {
        if (!bootstrap.equals("tcp") && !bootstrap.equals("file") && !bootstrap.equals("static") && !bootstrap.equals("cm")) {
            throw rc.usage("--bootstrap must be tcp, file, static or cm, not " + bootstrap);
        }
        if (psk.given() && !bootstrap.equals("tcp")) {
            throw rc.usage("--psk-file authenticates the TCP exchange; it does not apply to --bootstrap " + bootstrap);
        }
        // Read (and its permissions checked) before anything is set up: a bad key file is a clear error at once.
        org.jrdma.bootstrap.tcp.TcpSecurity security = psk.security();
        EndpointConfig config = rc.toConfig(bootstrap, port, timeout.duration());
        PrintWriter out = spec.commandLine().getOut();
        if (!json) {
            out.printf("jrdma demo: %d × %d B by RDMA SEND/RECV, path MTU %d, %s bootstrap%n", rc.iters, rc.size, rc.mtu, bootstrap);
        }
        Demo[] demo = new Demo[1];
        // one line in place on a terminal while the rounds run (demo -n 100000), nothing when piped
        Progress progress = json ? Progress.OFF : Progress.start(out, clock -> () ->
                demo[0] == null || demo[0].roundsDone() == 0 ? null : String.format(Locale.ROOT, " %.1f s  %d of %d round trips",
                        clock.elapsedSeconds(), demo[0].roundsDone(), rc.iters));
        DemoResult r;
        try {
            demo[0] = new Demo(config, p -> {
                if (!json) {
                    progress.print(() -> printPhase(out, p));
                }
            }, pcap).withSecurity(security);
            r = demo[0].run();
        } finally {
            progress.close();
        }
        if (json) {
            out.println(DemoJson.of(r));
        } else {
            printData(out, r);
        }
        // The seed's rule (the channel closed before the first RDMA packet) has nothing to
        // check with the CM: there is no channel, and its MADs are themselves RoCEv2 packets.
        if (!bootstrap.equals("cm") && !r.channelClosedBeforeFirstPacket() && r.firstRdmaPacketNanos() != 0) {
            throw new VerbsException(Errno.EPROTO, "an RDMA packet left before the out-of-band channel was closed");
        }
        return ExitCodes.OK;
    }

    private static void printPhase(PrintWriter out, Phase p) {
        String head = p.number() == 5 ? "" : "   " + p.detail().lines().findFirst().orElse("");
        out.printf(Locale.ROOT, "[%d] %-34s %9.3f ms%s%n", p.number(), p.name(), p.nanos() / 1e6,
                p.number() == 2 || p.number() == 4 ? "" : head);
        if (p.number() == 2 || p.number() == 4) {
            p.detail().lines().forEach(l -> out.println("      " + l));
        }
        out.flush();
    }

    private void printData(PrintWriter out, DemoResult r) {
        DataResult d = r.data();
        out.printf(Locale.ROOT, "      %d bytes in %.2f seconds = %.2f Mbit/sec%n", d.bytes(), d.seconds(), d.mbitPerSecond());
        out.printf(Locale.ROOT, "      %d iters in %.2f seconds = %.2f usec/iter%n", d.iters(), d.seconds(), d.microsPerIter());
        out.printf(Locale.ROOT, "      throughput %.1f MiB/s; one-way latency p50 %.1f µs, p99 %.1f µs, avg %.1f µs (half the round trip)%n",
                d.mibPerSecond(), d.p50Micros(), d.p99Micros(), d.avgMicros());
        if (bootstrap.equals("cm")) {
            out.printf("      %d messages verified byte for byte; out-of-band channel: none (the CM's MADs on QP1, no TCP)%n",
                    d.verifiedMessages());
        } else {
            out.printf("      %d messages verified byte for byte; %s closed before the first RDMA packet: %s%s%n", d.verifiedMessages(),
                    bootstrap.equals("tcp") ? "TCP sockets" : "exchange channel", r.channelClosedBeforeFirstPacket() ? "yes" : "NO",
                    r.packetsSeen() ? "" : " (before the first send was posted; this provider's packets are the NIC's, not seen here)");
        }
        if (!r.counters().isEmpty()) {
            long drops = r.counters().entrySet().stream().filter(e -> e.getKey().startsWith("drop_")).mapToLong(e -> e.getValue()).sum();
            out.printf("      device %s: packets sent %d, received %d, retransmitted %d, dropped %d%n", r.device(),
                    r.counters().getOrDefault("sent_packets", 0L), r.counters().getOrDefault("rcvd_packets", 0L),
                    r.counters().getOrDefault("retransmitted_packets", 0L), drops);
        }
    }
}
