package org.jrdma.examples;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;
import org.jrdma.bootstrap.RcConnection;
import org.jrdma.bootstrap.RcConnector;
import org.jrdma.bootstrap.RcOptions;
import org.jrdma.bootstrap.tcp.TcpExchange;
import org.jrdma.bootstrap.tcp.TcpOptions;
import org.jrdma.bootstrap.tcp.TcpServerExchange;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.CompletionChannel;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.Verbs;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;

/**
 * Completions by events, as {@code ibv_rc_pingpong -e}: each CQ has a completion channel, and
 * a thread with nothing to poll arms the CQ (ibv_req_notify_cq) and sleeps in
 * ibv_get_cq_event until a completion wakes it, instead of spinning. The client SENDs
 * {@value #MESSAGES} numbered messages, one at a time; the server has a receive posted for
 * each and checks that they came in order. {@code CompletionEvents server [port]} /
 * {@code CompletionEvents client host [port]} (port 18515 by default).
 */
public final class CompletionEvents {
    static final int MESSAGES = 100;
    private static final int SLOT = 64;
    private static final Duration WAIT = Duration.ofSeconds(30);

    /** What one side saw: the messages (the server's; the client's are those it sent) and the events it slept on. */
    record Result(List<String> messages, int events) {
    }

    private CompletionEvents() {
    }

    public static void main(String[] args) {
        Args a = Args.parse("CompletionEvents", args, TcpExchange.DEFAULT_PORT);
        Result r = a.isServer()
                ? server(a.port(), port -> System.out.println("CompletionEvents: listening on TCP port " + port))
                : client(a.host(), a.port());
        System.out.println("CompletionEvents " + (a.isServer() ? "server: received " : "client: sent ") + r.messages().size()
                + " messages (\"" + r.messages().getFirst() + "\" … \"" + r.messages().getLast() + "\"), woken by "
                + r.events() + " completion events");
    }

    static String message(int i) {
        return "message " + i + " of " + MESSAGES;
    }

    // tag::events-wait[]
    /**
     * The next completion of {@code cq}, sleeping on its channel while there is none. Poll, arm,
     * poll again, and only then sleep: a completion that came before the CQ was armed raises
     * no event, and would otherwise be waited for in vain. Returns how many events it slept on.
     */
    static int awaitCompletion(CompletionQueue cq, WorkCompletion[] wc) {
        int events = 0;
        while (cq.poll(wc) == 0) {
            cq.requestNotify(false);                          // ibv_req_notify_cq: the next completion raises an event
            if (cq.poll(wc) > 0) {
                break;
            }
            CompletionQueue fired = cq.channel().getEvent(WAIT);   // ibv_get_cq_event: the thread sleeps here
            fired.ackEvents(1);                               // ibv_ack_cq_events: each event taken is acknowledged
            events++;
        }
        return events;
    }
    // end::events-wait[]

    /** Receives {@link #MESSAGES} messages, sleeping on events; returns them in the order they came. */
    static Result server(int port, IntConsumer listening) {
        try (Arena arena = Arena.ofShared(); Context ctx = Verbs.device(null).open()) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionChannel channel = ctx.createCompChannel();   // ibv_create_comp_channel
            CompletionQueue cq = ctx.createCq(MESSAGES + 16, channel);
            MemoryRegion mr = pd.registerMemory(arena.allocate((long) SLOT * MESSAGES, 8), AccessFlags.LOCAL_WRITE, arena);

            TcpServerExchange tcp = TcpExchange.server(port, TcpOptions.rcPingpong()).bind();
            listening.accept(tcp.localPort());
            RcOptions options = RcOptions.defaults(cq).onInit(qp -> {   // a receive for every message, before the client can send
                for (int i = 0; i < MESSAGES; i++) {
                    qp.postRecv(new RecvWorkRequest().wrId(i).sg(Sge.of(mr, (long) i * SLOT, SLOT)));
                }
            });
            try (RcConnection _ = RcConnector.connect(pd, tcp, options)) {   // only its CQ is read below
                List<String> received = new ArrayList<>();
                WorkCompletion[] wc = {new WorkCompletion()};
                int events = 0;
                while (received.size() < MESSAGES) {
                    events += awaitCompletion(cq, wc);
                    check(wc[0], "a RECV");
                    MemorySegment slot = mr.segment().asSlice(wc[0].wrId * SLOT, wc[0].byteLen);
                    received.add(new String(slot.toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8));
                }
                return new Result(received, events);
            }
        }
    }

    /** Sends {@link #MESSAGES} messages, each after the last one's completion, sleeping on events. */
    static Result client(String host, int port) {
        try (Arena arena = Arena.ofShared(); Context ctx = Verbs.device(null).open()) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionChannel channel = ctx.createCompChannel();
            CompletionQueue cq = ctx.createCq(16, channel);
            MemoryRegion mr = pd.registerMemory(arena.allocate(SLOT, 8), AccessFlags.LOCAL_WRITE, arena);

            try (RcConnection c = RcConnector.connect(pd, TcpExchange.client(host, port, TcpOptions.rcPingpong()),
                    RcOptions.defaults(cq))) {
                List<String> sent = new ArrayList<>();
                WorkCompletion[] wc = {new WorkCompletion()};
                int events = 0;
                for (int i = 0; i < MESSAGES; i++) {
                    byte[] text = message(i).getBytes(StandardCharsets.UTF_8);
                    MemorySegment.copy(text, 0, mr.segment(), ValueLayout.JAVA_BYTE, 0, text.length);
                    c.qp().postSend(new SendWorkRequest().wrId(i).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED)
                            .sg(Sge.of(mr, 0, text.length)));
                    events += awaitCompletion(cq, wc);     // the buffer is ours again once the SEND completes
                    check(wc[0], "a SEND");
                    sent.add(message(i));
                }
                return new Result(sent, events);
            }
        }
    }

    private static void check(WorkCompletion wc, String what) {
        if (wc.status != WcStatus.SUCCESS) {
            throw new IllegalStateException(what + " failed: " + wc.status.str() + " (" + wc + ")");
        }
    }
}
