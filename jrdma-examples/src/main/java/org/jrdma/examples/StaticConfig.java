package org.jrdma.examples;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.Exchange;
import org.jrdma.bootstrap.RcConnection;
import org.jrdma.bootstrap.RcConnector;
import org.jrdma.bootstrap.RcOptions;
import org.jrdma.bootstrap.fixed.StaticExchange;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.Verbs;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;

/**
 * The static exchange: the peer's connection info is configuration ({@code key=value} text),
 * here pasted by a person. Each side prints its own lines (lid, qpn, psn, gid), reads the
 * other's from standard input up to an empty line, and connects; then the client SENDs a
 * message and the server RECVs it. {@code StaticConfig server} in one terminal,
 * {@code StaticConfig client} in another: paste the client's lines into the server first, and
 * when the server says it is connected, the server's lines into the client.
 */
public final class StaticConfig {
    private static final int SIZE = 256;

    private StaticConfig() {
    }

    public static void main(String[] args) {
        if (args.length != 1 || !args[0].equals("server") && !args[0].equals("client")) {
            System.err.println("usage: StaticConfig server|client  (then paste each side's lines into the other)");
            System.exit(2);
        }
        boolean server = args[0].equals("server");
        BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String got = run(server, stdin, System.out, "sent by RDMA SEND to a peer known from configuration");
        System.out.println("StaticConfig " + (server ? "server: received \"" : "client: sent \"") + got + "\"");
    }

    /** Our lines out, the peer's in, as a person carries them; StaticExchange checks and returns the peer's. */
    static Exchange pasted(BufferedReader in, PrintStream out) {
        return (local, listener) -> {
            out.println("# paste these lines into the other side, then an empty line:");
            out.println("lid=" + local.lid());
            out.printf("qpn=0x%06x%n", local.qpn());
            out.printf("psn=0x%06x%n", local.psn());
            out.println("gid=" + local.gid());
            out.println();
            out.flush();
            StringBuilder peer = new StringBuilder();
            try {
                for (String line = in.readLine(); line != null && !line.isBlank(); line = in.readLine()) {
                    peer.append(line).append('\n');
                }
            } catch (IOException e) {
                throw new UncheckedIOException("reading the peer's lines", e);
            }
            return StaticExchange.fromConfigText(peer).exchange(local, listener);   // a bad line is named
        };
    }

    /** The server receives a message and returns it; the client sends {@code message} and returns it. */
    static String run(boolean server, BufferedReader in, PrintStream out, String message) {
        try (Arena arena = Arena.ofShared(); Context ctx = Verbs.device(null).open()) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(16, null);
            MemoryRegion mr = pd.registerMemory(arena.allocate(SIZE), AccessFlags.LOCAL_WRITE, arena);

            // A person carries the lines: the other side may reach RTS seconds after this one, and
            // a SEND to a QP not yet in RTR is lost and resent after the local ACK timeout. 20 is
            // 4.096 µs × 2^20 ≈ 4.3 s, so retry_cnt 7 covers half a minute (rc_pingpong's 14: 0.5 s).
            RcOptions options = RcOptions.defaults(cq).withTimeout(20).onInit(qp -> {
                if (server) {
                    qp.postRecv(new RecvWorkRequest().wrId(1).sg(Sge.of(mr)));
                }
            });
            try (RcConnection c = RcConnector.connect(pd, pasted(in, out), options)) {
                out.println("StaticConfig: connected (QP " + hex(c.local()) + " in RTS, peer QP " + hex(c.remote()) + ")");
                out.flush();
                if (server) {
                    WorkCompletion wc = Cq.next(cq, "the client's message");
                    return new String(mr.segment().asSlice(0, wc.byteLen).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
                }
                byte[] text = message.getBytes(StandardCharsets.UTF_8);
                MemorySegment.copy(text, 0, mr.segment(), ValueLayout.JAVA_BYTE, 0, text.length);
                c.qp().postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED)
                        .sg(Sge.of(mr, 0, text.length)));
                Cq.next(cq, "the SEND");
                return message;
            }
        }
    }

    private static String hex(ConnInfo info) {
        return String.format("0x%06x", info.qpn());
    }
}
