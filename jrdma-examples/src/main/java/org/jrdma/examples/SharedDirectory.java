package org.jrdma.examples;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.jrdma.bootstrap.RcConnection;
import org.jrdma.bootstrap.RcConnector;
import org.jrdma.bootstrap.RcOptions;
import org.jrdma.bootstrap.file.FileExchange;
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
 * The exchange through a shared directory (a cluster's NFS home, or /tmp on one host): each side
 * writes {@code jrdma-<session>.<role>.conn} (rc_pingpong's 52-byte text) and waits, for up to
 * 10 s, for the other's; no socket is opened. Then the client SENDs a message and the server
 * RECVs it. {@code SharedDirectory server DIR SESSION} / {@code SharedDirectory client DIR SESSION},
 * with the same directory and a session string fresh for each run (so that no file of an
 * earlier run is read), e.g. {@code run-$(date +%s)}.
 */
public final class SharedDirectory {
    private static final int SIZE = 256;

    private SharedDirectory() {
    }

    public static void main(String[] args) {
        if (args.length != 3 || !args[0].equals("server") && !args[0].equals("client")) {
            System.err.println("usage: SharedDirectory server|client DIR SESSION  (the same DIR and SESSION on both sides)");
            System.exit(2);
        }
        boolean server = args[0].equals("server");
        String got = run(server, Path.of(args[1]), args[2], "sent by RDMA SEND; the connection info went through " + args[1]);
        System.out.println("SharedDirectory " + (server ? "server: received \"" : "client: sent \"") + got + "\"");
    }

    /** The server receives a message and returns it; the client sends {@code message} and returns it. */
    static String run(boolean server, Path directory, String session, String message) {
        try (Arena arena = Arena.ofShared(); Context ctx = Verbs.device(null).open()) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(16, null);
            MemoryRegion mr = pd.registerMemory(arena.allocate(SIZE), AccessFlags.LOCAL_WRITE, arena);

            FileExchange files = server ? FileExchange.of(directory, session, "server", "client")
                    : FileExchange.of(directory, session, "client", "server");
            RcOptions options = RcOptions.defaults(cq).onInit(qp -> {
                if (server) {                                 // the receive goes in at INIT, before the client can send
                    qp.postRecv(new RecvWorkRequest().wrId(1).sg(Sge.of(mr)));
                }
            });
            try (RcConnection c = RcConnector.connect(pd, files, options)) {   // each side read the other's file, and deleted it
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
}
