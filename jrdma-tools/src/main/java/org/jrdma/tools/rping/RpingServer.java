package org.jrdma.tools.rping;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.jrdma.cm.CmError;
import org.jrdma.cm.CmEvent;
import org.jrdma.cm.CmEventType;
import org.jrdma.cm.CmException;
import org.jrdma.cm.CmId;
import org.jrdma.cm.EventChannel;
import org.jrdma.cm.wire.PortSpace;
import org.jrdma.tools.Main;

/**
 * rping's server (rping_run_server, and with {@code -P} rping_run_persistent_server): listens,
 * and a dispatcher thread takes every CM event from the one channel — a CONNECT_REQUEST becomes
 * a {@link ServerSession} on a thread of its own, any other event goes to the session of its id.
 * So nothing a client does (connect while another is served, die, stop, say nothing) reaches
 * another client's session or the listener.
 *
 * <p>Without {@code -P} the server serves its first client and ends with that session's outcome
 * (as rping: 0 when the client disconnected, a failure otherwise); a request meanwhile is
 * rejected. With {@code -P} it serves clients at once, each on its own thread as rping -P does,
 * up to {@code --max-clients} (rping has no limit; each costs a thread, a QP and two buffers, so
 * a neighbour could otherwise open connections until memory runs out) and rejects the request
 * beyond; a session that fails is reported in one line on stderr and the server goes on.
 */
final class RpingServer {
    /** rping's rdma_listen(cm_id, 3). */
    private static final int BACKLOG = 3;

    private final RpingOptions o;
    private final PrintWriter out;
    private final PrintWriter err;
    /** The sessions being served, by their id; guarded by itself. */
    private final Map<CmId, ServerSession> live = new HashMap<>();
    /** Without -P: the one session's end; with -P: only a failure of the dispatcher. */
    private final CompletableFuture<Void> ended = new CompletableFuture<>();
    private int admitted;
    private volatile boolean stopping;

    RpingServer(RpingOptions o, PrintWriter out, PrintWriter err) {
        this.o = o;
        this.out = out;
        this.err = err;
    }

    /**
     * Serves until the end described above; an interrupt of the calling thread ends it too,
     * quietly, and so does a signal (^C: {@link SignalEnd}), telling every client (a DREQ).
     */
    void run() {
        try (SignalEnd signal = new SignalEnd(Thread.currentThread()); EventChannel events = EventChannel.create();
                CmId listener = CmId.create(events, PortSpace.TCP, "rping-server")) {
            listener.bindAddr(new InetSocketAddress(o.address(), o.port()));
            listener.listen(BACKLOG);
            if (o.debug()) {
                out.println("rping: listening on " + listener.localAddress());
                out.flush();
            }
            Thread dispatcher = Thread.ofPlatform().name("rping-cm-events").daemon(true).start(() -> dispatch(events));
            boolean interrupted = false;
            RuntimeException failure = null;
            try {
                ended.get();
            } catch (InterruptedException e) {
                interrupted = true;
            } catch (ExecutionException e) {
                if (e.getCause() instanceof Error fatal) {
                    throw fatal;
                }
                failure = e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
            } finally {
                stopping = true;
                stopSessions(); // the dispatcher still routes their last events, which their ids' close waits for
                dispatcher.interrupt();
                joinQuietly(dispatcher);
                refuseLeftovers(events);
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            if (failure != null) {
                throw failure;
            }
        }
    }

    private void dispatch(EventChannel events) {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                CmEvent e;
                try {
                    e = events.getEvent(o.connectWait());
                } catch (CmException quiet) {
                    if (quiet.error() == CmError.TIMED_OUT && !Thread.currentThread().isInterrupted()) {
                        continue; // a year without a client: keep waiting, as rping does
                    }
                    throw quiet;
                }
                if (e.type() == CmEventType.CONNECT_REQUEST) {
                    CmId child = e.id();
                    e.ack();
                    admit(child);
                } else {
                    route(e);
                }
            }
        } catch (RuntimeException | Error e) {
            if (!stopping) {
                ended.completeExceptionally(e); // nothing is served any more: the server ends with it
            }
        }
    }

    private void admit(CmId child) {
        String busy = null;
        ServerSession s = null;
        synchronized (live) {
            if (stopping) {
                busy = "rping server shutting down";
            } else if (!o.persistent() && admitted > 0) {
                busy = "rping server busy: without -P it serves one client";
            } else if (live.size() >= o.maxClients()) {
                busy = "rping server busy: it serves " + o.maxClients() + " clients at once (--max-clients)";
            } else {
                s = new ServerSession(child, o, out, err);
                admitted++;
                ServerSession session = s;
                s.thread = Thread.ofPlatform().name("rping-client-" + admitted).daemon(true).unstarted(() -> runSession(session));
                live.put(child, s);
            }
        }
        if (s != null) {
            s.thread.start();
        } else {
            reject(child, busy);
        }
    }

    /** A REJ (consumer defined) whose private data says why; the client prints it. */
    private void reject(CmId child, String why) {
        try {
            child.reject(why.getBytes(StandardCharsets.US_ASCII));
        } catch (CmException gone) {
            // the request went away meanwhile (its sender gave up); closing is all that is left
        }
        if (o.debug()) {
            out.println("rping: rejected the connection request of " + ServerSession.peerOf(child) + ": " + why);
            out.flush();
        }
        closeQuietly(child);
    }

    private void route(CmEvent e) {
        ServerSession s;
        synchronized (live) {
            s = live.get(e.id());
            if (s != null) {
                s.deliver(e);
            }
        }
        if (s == null) {
            e.ack(); // the listener's, or a finished session's (its TIMEWAIT_EXIT, a late DISCONNECTED)
        }
    }

    private void runSession(ServerSession s) {
        Throwable failure = null;
        try {
            s.serve();
        } catch (RuntimeException | Error e) {
            failure = e; // whatever it is, the session's end must be told (without -P the server waits for it)
        } finally {
            synchronized (live) {
                live.remove(s.id);
            }
            s.drain(); // from here on route() acks this id's events itself
            try {
                s.id.close();
            } catch (CmException e) {
                failure = failure == null ? e : failure;
            }
        }
        if (!o.persistent()) {
            if (failure == null) {
                ended.complete(null);
            } else {
                ended.completeExceptionally(failure);
            }
        } else if (failure != null && !stopping) {
            err.println("jrdma rping: client " + s.peer() + ": " + Main.describe(failure) + "; the server (-P) goes on");
            err.flush();
        }
    }

    /** Interrupts the sessions still running (the server ends) and waits for each to clean up. */
    private void stopSessions() {
        List<ServerSession> running;
        synchronized (live) {
            running = new ArrayList<>(live.values());
        }
        running.forEach(s -> s.thread.interrupt());
        running.forEach(s -> joinQuietly(s.thread));
    }

    /** Requests that came after the dispatcher stopped: rejected by closing their ids; other events acked. */
    private static void refuseLeftovers(EventChannel events) {
        for (CmEvent e; (e = events.poll()) != null; ) {
            e.ack();
            if (e.type() == CmEventType.CONNECT_REQUEST) {
                closeQuietly(e.id());
            }
        }
    }

    private void joinQuietly(Thread t) {
        try {
            t.join(o.timeout().multipliedBy(2));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(CmId id) {
        try {
            id.close();
        } catch (CmException e) {
            // destroyed all the same; an event not acked in time is all it can say
        }
    }
}
