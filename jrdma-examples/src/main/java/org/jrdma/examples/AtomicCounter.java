package org.jrdma.examples;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntConsumer;
import org.jrdma.bootstrap.RcConnection;
import org.jrdma.bootstrap.RcConnector;
import org.jrdma.bootstrap.RcOptions;
import org.jrdma.bootstrap.tcp.TcpExchange;
import org.jrdma.bootstrap.tcp.TcpOptions;
import org.jrdma.bootstrap.tcp.TcpServerExchange;
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
import org.jrdma.verbs.WrOpcode;

/**
 * A counter in the server's memory that clients increment with RDMA atomics: FETCH_AND_ADD,
 * and CMP_AND_SWP in a compare-and-swap loop. The responder executes each atomic on the
 * 8-byte word as one indivisible step, so however the clients' increments interleave none is
 * lost: the server waits for every client's "done" and prints the final value. The server
 * accepts one client at a time (a TCP exchange serves one peer): start the clients one after
 * the other; they begin together, once the last has connected. The counter's address and rkey
 * reach each client in the exchange (perftest's key message, {@code RcOptions.exposing}); an
 * empty SEND then says go.
 * {@code AtomicCounter server [port] [clients]} / {@code AtomicCounter client host [port] [increments]}
 * (port 18515, 2 clients, 1000 increments by default).
 */
public final class AtomicCounter {
    private AtomicCounter() {
    }

    public static void main(String[] args) {
        // the third word: how many clients the server waits for, how many increments a client makes
        int count = args.length == 4 || args.length == 3 && args[0].equals("server") ? count(args[args.length - 1]) : -1;
        String[] roleArgs = count < 0 ? args : Arrays.copyOf(args, args.length - 1);
        Args a = Args.parse("AtomicCounter", roleArgs, TcpExchange.DEFAULT_PORT);
        if (a.isServer()) {
            long total = server(a.port(), count < 0 ? 2 : count, 
                    port -> System.out.println("AtomicCounter: listening on TCP port " + port + " for the next client"));
            System.out.println("AtomicCounter server: the counter is " + total);
        } else {
            long[] taken = client(a.host(), a.port(), count < 0 ? 1000 : count);
            System.out.println("AtomicCounter client: made " + taken.length + " increments, the last from " + taken[taken.length - 1]);
        }
    }

    private static int count(String word) {
        try {
            int n = Integer.parseInt(word);
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // not a count
        }
        System.err.println("AtomicCounter: bad count '" + word + "' (a positive number of clients or increments)");
        System.exit(2);
        return -1;
    }

    /**
     * Connects {@code clients} clients one after the other, telling {@code listening} its port
     * each time it is ready for the next; then lets them all at the counter at once and waits
     * for each one's "done". Returns the counter.
     */
    static long server(int port, int clients, IntConsumer listening) {
        try (Arena arena = Arena.ofShared(); Context ctx = Verbs.device(null).open()) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(2 * clients + 16, null);
            MemoryRegion counter = pd.registerMemory(arena.allocate(8, 8),   // atomics need an 8-byte aligned word
                    AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_ATOMIC, arena);
            RcOptions options = RcOptions.defaults(cq)
                    .exposing(counter)                             // its address and rkey to each client, in the exchange
                    .onInit(qp -> qp.postRecv(new RecvWorkRequest().wrId(1)));   // for the client's empty "done"
            List<RcConnection> connections = new ArrayList<>();
            try {
                for (int i = 0; i < clients; i++) {                // each exchange accepts one client, on the same port
                    TcpServerExchange tcp = TcpExchange.server(port, TcpOptions.perftest()).bind();
                    port = tcp.localPort();                        // port 0: the next clients come to the one chosen
                    listening.accept(port);                        // ready for the next client
                    connections.add(RcConnector.connect(pd, tcp, options));
                }
                for (RcConnection c : connections) {               // all connected: an empty SEND to each says go,
                    c.qp().postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.SEND));   // so they start together
                }
                for (int i = 0; i < clients; i++) {
                    Cq.next(cq, "the clients' \"done\" (" + i + " of " + clients + " came)");
                }
                return counter.segment().get(ValueLayout.JAVA_LONG, 0);     // the responder's host order
            } finally {
                connections.forEach(RcConnection::close);
            }
        }
    }

    /** Adds 1 to the server's counter {@code increments} times; returns the value each increment found. */
    static long[] client(String host, int port, int increments) {
        try (Arena arena = Arena.ofShared(); Context ctx = Verbs.device(null).open()) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(16, null);
            MemoryRegion old = pd.registerMemory(arena.allocate(8, 8), AccessFlags.LOCAL_WRITE, arena);  // where an atomic returns the word it found
            RcOptions options = RcOptions.defaults(cq)
                    .onInit(qp -> qp.postRecv(new RecvWorkRequest().wrId(1)));   // for the server's empty "go"
            try (RcConnection c = RcConnector.connect(pd, TcpExchange.client(host, port, TcpOptions.perftest()), options)) {
                long addr = c.remoteBuffer().address();            // the counter, as the server exposed it
                int rkey = c.remoteBuffer().rkey();
                Cq.next(cq, "the server's \"go\"");
                MemorySegment found = old.segment();
                long[] taken = new long[increments];
                long guess = 0;                                    // what CMP_AND_SWP expects the counter to hold
                for (int i = 0; i < increments; i++) {
                    if (i % 2 == 0) {                              // FETCH_AND_ADD: counter += 1, returns the old value
                        c.qp().postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.ATOMIC_FETCH_AND_ADD)
                                .flags(SendFlags.SIGNALED).sg(Sge.of(old)).atomic(addr, rkey, 1, 0));
                        Cq.next(cq, "FETCH_AND_ADD");
                        taken[i] = found.get(ValueLayout.JAVA_LONG, 0);
                    } else {                                       // CMP_AND_SWP: if counter == guess then counter = guess + 1
                        while (true) {
                            c.qp().postSend(new SendWorkRequest().wrId(3).opcode(WrOpcode.ATOMIC_CMP_AND_SWP)
                                    .flags(SendFlags.SIGNALED).sg(Sge.of(old)).atomic(addr, rkey, guess, guess + 1));
                            Cq.next(cq, "CMP_AND_SWP");
                            long was = found.get(ValueLayout.JAVA_LONG, 0);
                            if (was == guess) {
                                break;                             // swapped
                            }
                            guess = was;                           // another client got there first: try from its value
                        }
                        taken[i] = guess;
                    }
                    guess = taken[i] + 1;
                }
                c.qp().postSend(new SendWorkRequest().wrId(4).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED));  // "done"
                Cq.next(cq, "the \"done\" SEND");
                return taken;
            }
        }
    }
}
